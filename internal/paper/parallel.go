package paper

import (
	"runtime"
	"sync"
)

// workers returns how many goroutines an experiment's Workers option
// asks for: n, or GOMAXPROCS when n is not positive.
func workers(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// parallel calls fn(i) for i in [0, n) on up to workers goroutines and
// returns the error of the lowest i that failed (so the error, like the
// results fn stores by index, does not depend on scheduling).
func parallel(n, workers int, fn func(i int) error) error {
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
