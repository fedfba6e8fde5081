// Package keel reads data sets in the KEEL .dat format (an ARFF dialect:
// sci2s.ugr.es/keel) as used by Wang & Pineau's experiments, for binary
// imbalanced classification.
//
//	@relation <name>
//	@attribute <name> real [<min>, <max>]     (or integer; the range is optional)
//	@attribute <name> {<v1>, <v2>, ...}       (nominal)
//	@inputs <name>, ...                        (optional: all but the output)
//	@outputs <name>                            (or @output; optional: the last attribute)
//	@data
//	v1, v2, ..., vd, <label>
//
// Keywords are matched case-insensitively. The reader accepts the quirks of
// the files in shared/data/keel: CRLF or LF line ends, trailing blanks, no
// final newline, ", " or "," separators, "Type{R, M}" with no blank before
// the brace, and a class declared in the header that no row uses. Lines
// starting with % are comments. Declared [min, max] ranges are read but not
// enforced (they document the data, and KEEL files do not always honour
// them).
//
// Input attributes become float64 features: real and integer values as
// written; a nominal input value is encoded as its 0-based position in the
// attribute's declared list (so {a, b, c} gives 0, 1, 2). A missing value
// ("?") is an error: the base learners cannot take one.
//
// The positive class is the minority label of the data set, chosen by an
// explicit rule: PositiveLabels, keyed by relation name, overrides (sonar:
// "R", satimage: "4", as in the data manifest); otherwise the label
// "positive"; otherwise Load fails with ErrNoPositive. Every other label is
// negative.
//
// Errors name the file, the line and the reason, and wrap ErrFormat (or
// ErrNoPositive).
package keel
