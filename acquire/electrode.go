package acquire

import "strings"

// positions of an electrode row of the 10-20 and 10-10 systems: bit n for
// the electrode numbered n (odd on the left, even on the right), bit 0 for
// the midline one ("z").
const midline = 1

func numbered(lo, hi int) uint16 {
	var b uint16
	for n := lo; n <= hi; n++ {
		b |= 1 << n
	}
	return b
}

// rows are the electrode rows of the 10-10 system (Fp to I, front to
// back) with the positions each has. T also keeps the old 10-20 names
// T3-T6 and the anterior temporal T1 and T2 of clinical epilepsy
// montages.
var rows = map[string]uint16{
	"FP": midline | numbered(1, 2),
	"AF": midline | numbered(1, 10),
	"F":  midline | numbered(1, 10),
	"FT": numbered(7, 10),
	"FC": midline | numbered(1, 6),
	"T":  numbered(1, 10),
	"C":  midline | numbered(1, 6),
	"TP": numbered(7, 10),
	"CP": midline | numbered(1, 6),
	"P":  midline | numbered(1, 10),
	"PO": midline | numbered(1, 10),
	"O":  midline | numbered(1, 2) | numbered(9, 10),
	"I":  midline | numbered(1, 2),
	// ear lobes and mastoids: references, and EEG channels of their own
	"A": numbered(1, 2),
	"M": numbered(1, 2),
}

// isElectrode reports whether name, in any case, is an electrode of the
// 10-20 or 10-10 system: "Fp1", "Cz", "FT10", the old "T3" … "T6", the
// anterior temporal "T1" and "T2", the nasion "Nz", and the ear and
// mastoid references "A1", "A2", "M1", "M2".
func isElectrode(name string) bool {
	s := strings.ToUpper(name)
	if s == "NZ" {
		return true
	}
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	row, num := s[:i], s[i:]
	var bit uint
	switch {
	case num == "" && strings.HasSuffix(row, "Z"):
		row, bit = row[:len(row)-1], 0
	case num == "" || num[0] == '0' || len(num) > 2:
		return false
	default:
		bit = uint(num[0] - '0')
		if len(num) == 2 {
			bit = 10*bit + uint(num[1]-'0')
		}
		if bit > 10 {
			return false
		}
	}
	return rows[row]&(1<<bit) != 0
}

// references are the names of a common reference after "-" in a
// referential derivation: "Fp1-Ref", "C3-AVG", "Cz-LE" (linked ears).
var references = []string{"REF", "AVG", "AV", "AR", "CAR", "LE"}

// isDerivation reports whether label names a scalp EEG derivation by its
// electrodes: one electrode ("Fp1"), two joined by "-" (a bipolar pair,
// "Fp1-F7", "C3-A2"), or one against a common reference ("Fp1-Ref",
// "C3-AVG"), with spaces around the parts allowed and a trailing "-0",
// "-1" … (CHB-MIT's mark of a repeated derivation, "T8-P8-1") ignored.
func isDerivation(label string) bool {
	parts := strings.Split(label, "-")
	if n := len(parts); n == 3 && digits(strings.TrimSpace(parts[2])) {
		parts = parts[:2]
	}
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	switch len(parts) {
	case 1:
		return isElectrode(parts[0])
	case 2:
		if !isElectrode(parts[0]) {
			return false
		}
		for _, r := range references {
			if strings.EqualFold(parts[1], r) {
				return true
			}
		}
		return isElectrode(parts[1])
	}
	return false
}

// digits reports whether s is one or more decimal digits.
func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
