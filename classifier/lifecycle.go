package classifier

// Reset implements Ensemble. It rebuilds the members (with the factory,
// for NewWithLearner's ensembles), so it allocates as New does; its only
// error is the factory's.
func (e *ensemble) Reset() error {
	mk := func(int) learner { return newLearner(e.cfg.Learner, e.cfg.Features, e.cfg.Beta) }
	if e.factory != nil {
		ls, err := makeLearners(e.cfg, e.factory)
		if err != nil {
			return err
		}
		mk = func(m int) learner { return ls[m] }
	}
	f := e.factory
	*e = *newEnsemble(e.cfg, e.alg, e.ns, mk)
	e.factory = f
	return nil
}

// Clone implements Ensemble.
func (e *ensemble) Clone() (Ensemble, error) {
	b, err := e.MarshalBinary()
	if err != nil {
		return nil, err
	}
	c, err := load(b, e.factory)
	if err != nil {
		return nil, err
	}
	return c, nil
}
