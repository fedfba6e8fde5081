package resample

import (
	"strings"
	"testing"
)

func TestParseRate(t *testing.T) {
	tests := []struct {
		in   string
		want Rate
		err  string
	}{
		{"256", Rate{256, 1}, ""},
		{"173.61", Rate{17361, 100}, ""},
		{"100.50", Rate{201, 2}, ""},
		{"20485/118", Rate{20485, 118}, ""},
		{"1e3", Rate{1000, 1}, ""},
		{"0.000001", Rate{1, MaxDen}, ""},
		{"abc", Rate{}, "not a number"},
		{"NaN", Rate{}, "not a number"},
		{"Inf", Rate{}, "not a number"},
		{"", Rate{}, "not a number"},
		{"0", Rate{}, "positive"},
		{"-250", Rate{}, "positive"},
		{"0.0000001", Rate{}, "six decimals"},
		{"1/3000001", Rate{}, "six decimals"},
		{"1e12", Rate{}, "above"},
	}
	for _, tt := range tests {
		got, err := ParseRate(tt.in)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("ParseRate(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), tt.in)):
			t.Errorf("ParseRate(%q) error %v, want one naming it and saying %q", tt.in, err, tt.err)
		}
	}
}

// RateOf recovers the exact fraction of a rate computed as samples per
// EDF record over the record's duration.
func TestRateOf(t *testing.T) {
	tests := []struct {
		hz   float64
		want Rate
		err  bool
	}{
		{256, Rate{256, 1}, false},
		{250.5, Rate{501, 2}, false},
		{4097 / 23.6, Rate{20485, 118}, false},
		{17361.0 / 100, Rate{17361, 100}, false},
		{200 / 0.39, Rate{20000, 39}, false},
		{1.0 / 3, Rate{1, 3}, false},
		{0, Rate{}, true},
		{-1, Rate{}, true},
		{1e-9, Rate{}, true},
		{1e6, Rate{}, true},
	}
	for _, tt := range tests {
		got, err := RateOf(tt.hz)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("RateOf(%v) = %v, %v; want %v (error %v)", tt.hz, got, err, tt.want, tt.err)
		}
	}
}

func TestRateString(t *testing.T) {
	tests := []struct {
		r    Rate
		want string
	}{
		{Rate{256, 1}, "256"},
		{Rate{17361, 100}, "173.61"},
		{Rate{501, 2}, "250.5"},
		{Rate{1, 40}, "0.025"},
		{Rate{20485, 118}, "20485/118"},
		{Rate{1, 3}, "1/3"},
	}
	for _, tt := range tests {
		if got := tt.r.String(); got != tt.want {
			t.Errorf("%d/%d: %q, want %q", tt.r.Num, tt.r.Den, got, tt.want)
		}
	}
}
