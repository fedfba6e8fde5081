//go:build race

package batch

// raceEnabled: the race detector's sync.Pool drops a quarter of what is
// put back, on purpose, so Score's scratch is allocated again at random
// and an allocation count means nothing under it.
const raceEnabled = true
