// Package prequential measures an online binary classifier the way a data
// stream is used: each example is first scored, then learned once its label
// is known (test-then-train, Gama et al.'s prequential evaluation), and the
// score the model gave before it learned the example is what is measured.
//
// An Evaluator takes the (score, label) pairs in stream order and reports,
// over the whole stream and over a sliding window of the last N examples:
//
//   - AUC, the area under the ROC of the scores: the Mann–Whitney
//     probability that a positive scores above a negative, ties counting ½.
//     It is exact (no binning of scores), computed incrementally: an
//     example adds its pairs with every earlier example of the other class,
//     and leaving the window removes its pairs with those still inside.
//   - the recall of each class at a decision threshold (a score above the
//     threshold is a positive decision): TPR, the positive class's recall,
//     and TNR, the negative class's;
//   - G-mean, √(TPR·TNR), the usual single figure for imbalanced streams
//     (Wang & Pineau use it beside AUC): it is 0 when either class is
//     entirely missed, however rare it is, where accuracy would reward a
//     model that always answers the majority class.
//
// A figure that needs a class the stream (or window) has not yet shown is
// NaN: AUC needs both classes, TPR a positive, TNR a negative, G-mean both.
//
// # Which score
//
// Any real score works, with the threshold at which it decides: a
// classifier.Model's Score (the ensemble's vote, in [0, 1], deciding at
// 0.5) or its graded score classifier.Grader's Margin (the members'
// weighted log-odds, deciding at 0). The vote takes few values, 0 or 1
// whenever the members agree, so its AUC ties most pairs; the AUC of the
// margin ranks them, and is the one to compare models by (Example_margin:
// 0.84 for the vote, 0.90 for the margin of the same model). Use one
// Evaluator per score, and per threshold to compare operating points.
//
// # Cost
//
// The window holds its scores in two sorted buffers of at most N scores, one
// per class; an Add costs O(log N) comparisons and moves of at most N
// numbers, and allocates nothing. The whole-stream AUC needs every score seen
// (an exact rank needs them all): they are kept in a balanced search tree
// with one node per distinct score, O(log n) per Add. The tree's nodes live
// in one slice that grows by doubling, so Add allocates only when the tree
// outgrows it (amortised O(1), and not at all with Reserve). Equal scores
// share a node: a model with few distinct scores (an ensemble vote of M
// members takes few values when the members' votes are hard) costs little
// memory however long the stream.
//
// The Mann–Whitney statistic is kept as an integer count of half pairs, so
// the AUC does not drift over a long stream: it is the exact ratio
// U/(P·N), rounded once, as a batch computation over the same scores
// would give it.
//
// # Checkpoints
//
// MarshalBinary (or AppendBinary) writes an Evaluator's state, and
// UnmarshalBinary restores it, so that an evaluation can be saved with the
// model's own checkpoint (classifier.Model.MarshalBinary) and resumed
// after a restart with the same figures. The checkpoint holds the window's
// examples and the distinct scores seen with their class counts; the
// figures are rebuilt from these, so a consistent checkpoint is the only
// kind that loads.
//
// An Evaluator is not safe for concurrent use. The package's computation is
// deterministic: the tree's balance comes from a fixed pseudo-random
// sequence, not from the scores.
package prequential
