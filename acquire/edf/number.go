package edf

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// field returns the text of a header field with the trailing (and leading)
// spaces and NULs removed.
func field(b []byte) string {
	return strings.Trim(string(b), " \x00")
}

// parseInt reads an integer header field.
func parseInt(b []byte) (int64, error) {
	s := field(b)
	if s == "" {
		return 0, fmt.Errorf("empty, want an integer")
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q: not an integer", s)
	}
	return v, nil
}

// parseFloat reads a decimal header field; NaN and infinities are refused.
func parseFloat(b []byte) (float64, error) {
	s := field(b)
	if s == "" {
		return 0, fmt.Errorf("empty, want a number")
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q: not a finite number", s)
	}
	return v, nil
}

// maxSeconds bounds the integer part of a time in seconds so that it fits a
// time.Duration (about 292 years).
const maxSeconds = math.MaxInt64/int64(time.Second) - 1

// parseSeconds reads a decimal number of seconds ("12", "0.3945312",
// "+600.0000", "-1.5") into an exact duration: digits past the ninth decimal
// are rounded to the nanosecond. signed requires a leading '+' or '-' (a TAL
// onset); otherwise no sign is allowed (a TAL duration, a record duration).
// It allocates nothing.
func parseSeconds(b []byte, signed bool) (time.Duration, error) {
	if len(b) == 0 {
		return 0, errEmptyNumber
	}
	neg := false
	i := 0
	if signed {
		switch b[0] {
		case '+':
		case '-':
			neg = true
		default:
			return 0, errNoSign
		}
		i = 1
	} else if b[0] == '+' || b[0] == '-' {
		return 0, errUnexpectedSign
	}
	var sec int64
	digits := 0
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		sec = sec*10 + int64(b[i]-'0')
		if sec > maxSeconds {
			return 0, errNumberRange
		}
		digits++
	}
	var frac int64 // nanoseconds
	if i < len(b) && b[i] == '.' {
		i++
		scale := int64(100000000)
		roundUp := false
		for n := 0; i < len(b) && b[i] >= '0' && b[i] <= '9'; i, n = i+1, n+1 {
			d := int64(b[i] - '0')
			switch {
			case n < 9:
				frac += d * scale
				scale /= 10
			case n == 9:
				roundUp = d >= 5
			}
			digits++
		}
		if roundUp {
			frac++
		}
	}
	if digits == 0 || i != len(b) {
		return 0, errNotNumber
	}
	d := time.Duration(sec)*time.Second + time.Duration(frac)
	if neg {
		d = -d
	}
	return d, nil
}

// numberError is a reason a decimal number was refused.
type numberError string

func (e numberError) Error() string { return string(e) }

const (
	errEmptyNumber    numberError = "empty number"
	errNoSign         numberError = "onset without '+' or '-' sign"
	errUnexpectedSign numberError = "unexpected sign"
	errNumberRange    numberError = "number out of range"
	errNotNumber      numberError = "not a decimal number"
)

// appendSeconds writes d as a decimal number of seconds with no trailing
// zeros ("1", "0.5", "9.59375"), exactly.
func appendSeconds(dst []byte, d time.Duration) []byte {
	if d < 0 {
		dst = append(dst, '-')
		d = -d
	}
	dst = strconv.AppendInt(dst, int64(d/time.Second), 10)
	frac := int64(d % time.Second)
	if frac == 0 {
		return dst
	}
	var f [9]byte
	for i := 8; i >= 0; i-- {
		f[i] = byte('0' + frac%10)
		frac /= 10
	}
	n := 9
	for n > 0 && f[n-1] == '0' {
		n--
	}
	dst = append(dst, '.')
	return append(dst, f[:n]...)
}
