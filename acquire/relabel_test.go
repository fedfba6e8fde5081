package acquire

import (
	"strings"
	"testing"
)

// fixed is a source that only describes itself.
type fixed struct{ info Info }

func (f *fixed) Info() Info                { return f.info }
func (f *fixed) Close() error              { return nil }
func (f *fixed) ReadFrame(fr *Frame) error { return nil }

type labeledSource struct {
	Source
	iv []Interval
}

func (l labeledSource) Intervals() []Interval { return l.iv }

func TestRelabel(t *testing.T) {
	src := &fixed{info: Info{Rate: 250, Channels: []Channel{{Label: "1"}, {Label: "2"}}}}
	ls := labeledSource{Source: src, iv: []Interval{{Text: "blink"}}}
	r, err := Relabel(ls, []string{"Fp1", " O2 "})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Info().Channels; got[0].Label != "Fp1" || got[1].Label != "O2" {
		t.Errorf("labels %+v", got)
	}
	if src.info.Channels[0].Label != "1" {
		t.Error("Relabel changed the wrapped source's Info")
	}
	if iv := r.Intervals(); len(iv) != 1 || iv[0].Text != "blink" {
		t.Errorf("intervals %+v", iv)
	}
	if r, _ := Relabel(src, []string{"a", "b"}); r.Intervals() != nil {
		t.Error("a source without intervals has intervals")
	}
	for _, tt := range []struct {
		labels []string
		want   string
	}{
		{[]string{"Fp1"}, "1 labels for 2 channels"},
		{[]string{"Fp1", " "}, "label 2 is empty"},
		{[]string{"Fp1", "Fp1"}, `label "Fp1" given for channels 1 and 2`},
	} {
		if _, err := Relabel(src, tt.labels); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Relabel(%q) = %v, want %q", tt.labels, err, tt.want)
		}
	}
}
