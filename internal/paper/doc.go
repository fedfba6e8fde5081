// Package paper reproduces the experiments of Wang & Pineau, "Online
// Bagging and Boosting for Imbalanced Data Streams" (shared/seed/), with
// ictal's online ensembles (package classifier) and their batch
// counterparts (classifier/batch): the commands `ictal paper cv`, `drift`,
// `curve` and `plots`. README.md beside this file gives the commands and
// today's results.
//
// # Protocol (RunCV, Section 6)
//
// Stratified k-fold cross-validation (StratifiedFolds). Features are
// standardised with the training fold's mean and standard deviation: the
// paper does not say; Gaussian NB, LDA and QDA are affine-invariant but
// for their variance floor and ridge, which standardising makes
// scale-free, and it gives SMOTE's Euclidean neighbours equal weight per
// feature. Online ensembles learn the training fold once, in a seeded
// random order; batch ones train on it as a set. An ROC is traced by
// sweeping the cost over n settings of the paper's Table "Parameter
// Setting" (sweepValues: AC2/CSB2 C_N from 0.1 to 1 with C_P = 1; UOB,
// SB, RUS3, SBO3 C from 1 to the training fold's class ratio; RUS1, RUS2,
// SBO1, SBO2 from the ratio down to 1); each setting trains a new model
// and gives one (FPR, TPR) point of its decisions Score > 0.5 on the test
// fold. OzaBag and OzaBoost have no cost: their n points are decision
// thresholds (i+½)/n on one model's scores. The reported AUC is that of
// the ROC through those points (AUCPoints: sorted by FPR, with (0,0) and
// (1,1), trapezoids, no convex hull, so a non-monotone sweep is
// penalised); CVOptions.Hull adds the convex-hull AUC (AUCHull) and
// CVOptions.Span widens the cost ranges. auc_score is the Mann–Whitney AUC of the continuous Score at
// the default cost (AUCScores, ties ½).
//
// Every training run's seed is derived from (seed, dataset, algorithm,
// learner, mode, fold, setting) alone, and records are written in a fixed
// order, so the output is byte-identical for any number of workers.
//
// # Drift (RunDrift, Section 8) and learning curves (RunCurve)
//
// SineStream builds SINE1, SINE1G and SINE1M with an exact class ratio,
// and SineStreamWith with the other choices the paper leaves open
// (SineProtocol); RunDrift reports an AUC of the prequential predictions of
// AC2 and nsAC2, by one of several methods (DriftOptions.AUC), with the
// costs and ensemble size as options. RunCurve trains
// on stratified random fractions of one data set (satimage in the paper)
// and tests on the rest, with the cv sweep. Plot draws the figures.
package paper
