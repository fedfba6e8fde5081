package classifier

import "fmt"

// LearnWeighted implements Ensemble.
func (e *ensemble) LearnWeighted(x []float64, positive bool, w float64) error {
	if err := checkInput(x, e.cfg.Features); err != nil {
		return err
	}
	if !(w > 0 && w <= MaxWeight) {
		return fmt.Errorf("%w: weight %g, want (0, %d]", ErrInput, w, MaxWeight)
	}
	e.w = w
	e.learn(x, positive)
	e.w = 1
	return e.customErr()
}
