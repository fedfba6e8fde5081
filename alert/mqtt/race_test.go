//go:build race

package mqtt

// raceEnabled: the race detector multiplies a program's memory (about 4×
// for the broker's attack tests), so a bound on resident memory means
// nothing under it.
const raceEnabled = true
