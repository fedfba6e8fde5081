// Package bonn runs ictal's features and online classifiers on the Bonn
// epilepsy EEG (Andrzejak et al. 2001, Phys. Rev. E 64, 061907): five sets
// of 100 single-channel segments (80 of each in the shared data), 4097
// samples at 173.61 Hz (23.6 s), as ADC counts used as µV. Set S (E) is
// ictal; Z (A) and O (B) are surface EEG of healthy volunteers, eyes open
// and closed; N (C) and F (D) are interictal intracranial EEG, opposite
// and inside the epileptogenic zone.
//
// CrossValidate splits segments, never windows, into stratified folds: the
// 22 windows (2 s, step 1 s) of a segment are all in the training set or
// all in the test set. A model learns the training windows one at a time
// in a seeded random order (the online ensembles' use), and a test
// segment's score is the mean of its windows' scores. Concat writes
// continuous EDF+ recordings by splicing segments (see Concat for what that
// does not show). Clinician is a simulated clinician for replays of such
// recordings: it confirms, rejects and marks through the pipeline's
// feedback path, and Split scores a replay per third of the recording.
package bonn
