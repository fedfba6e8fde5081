// Package batch implements the batch counterparts of the online ensembles
// in package classifier, as Wang & Pineau define them (Section 3 and the
// boxes Alg. bagging, adaboost, underoverbagging, smotebagging, smote,
// AdaC2, CSB2, rusboost, smoteboost), so that each online algorithm can be
// compared with the algorithm it is meant to converge to.
//
// # Resampling
//
// Every algorithm is trained by resampling, as the paper does ("all
// boosting techniques are implemented by resampling"): member m's training
// set is a multiset of original examples (drawn with replacement from the
// uniform or the boosting distribution D_m) plus synthetic positives made
// by batch SMOTE. It is presented to the base learner as one weighted
// update per distinct example, weight = number of copies, which is exact
// because the learners are lossless; each synthetic example has weight 1.
// The base learners are classifier.BaseLearner, the very learners of the
// online ensembles. Sizes per member (N⁺, N⁻ the positives and negatives
// of the training set, a = m/M, round = nearest integer):
//
//	OzaBag   N draws from S                                   (Alg. bagging)
//	UOB      round(a·N⁻) negatives, round(a·C·N⁺) positives   (Alg. underoverbagging)
//	SB       N⁻ negatives, round(a·C·N⁺) positives, round((1−a)·C·N⁺) SMOTE (Alg. smotebagging)
//	OzaBoost, AC2, CSB2   N draws from D_m                    (Alg. adaboost, AdaC2, CSB2)
//	RUS1     keep round(C·N⁺) negatives at random and every positive, renormalise D_m
//	         over them, draw N⁺ + round(C·N⁺) from it           (fix the class ratio)
//	RUS2     round(C·N⁺) negatives from D_m|S⁻ and N⁺ positives from D_m|S⁺
//	RUS3     N draws from D_m, then keep round(k⁻/C) of the k⁻ drawn negatives
//	SBO1     N draws from D_m plus round(N⁻/C − N⁺) SMOTE positives from uniformly chosen positives
//	SBO2     N⁻ from D_m|S⁻, N⁺ from D_m|S⁺, plus round(N⁻/C − N⁺) SMOTE from the drawn positives
//	SBO3     N draws from D_m plus round((C−1)·N'⁺) SMOTE from the N'⁺ drawn positives
//
// UOB's and SB's counts are at least 1 per class, so that every member sees
// both classes; a negative SMOTE count means none.
//
// # Weights and votes
//
// The boosting distributions follow the normalisation-free updates the
// online algorithms are derived from, which equal the printed ones after
// normalisation (see the update functions). D is renormalised after every
// member. As in the paper's experiments (Section 7) boosting never stops
// when a member's error reaches 0.5: the updates go on, the weights then
// moving the other way. Degenerate members mirror the online rules: with
// no misclassified example (ε = 0) or no correct one, the missing factor
// is not needed and the distribution keeps its shape; CSB2's correct-case
// factor 0/0 at ε = 0 is taken as 1/2, like online CSB2.
//
// Score has the online ensembles' semantics exactly: bagging returns the
// fraction of members voting positive; boosting returns Σα_m h_m(x)/Σα_m
// over the members with α_m > 0, where α_m = log((1−ε_m)/ε_m) (AC2:
// log(wacc/werr), i.e. ε = werr/(wacc+werr)), ε clamped below at 1e-6, and
// a member with ε ≥ 0.5 abstains. If every member abstains, Score is the
// unweighted vote.
//
// # SMOTE
//
// Batch SMOTE (Alg. smote) interpolates a positive x towards one of its
// k nearest positives (Euclidean, k = Config.Neighbors), chosen uniformly:
// x + γ(x' − x), γ uniform in [0, 1). Neighbours are distinct from x:
// copies at distance 0 are skipped, as in online SMOTE; a positive with no
// distinct neighbour yields no synthetic example. When SMOTE must make T
// examples per positive with T fractional, the positives are visited in a
// random order, cyclically, so each gets ⌊T⌋ or ⌈T⌉.
//
// Training is deterministic: member m draws from its own PCG stream seeded
// from Config.Seed and m. The forgetting-factor (ns) variants have no batch
// counterpart and are rejected, as is Beta ≠ 1.
package batch
