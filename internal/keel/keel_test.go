package keel

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ictal/ictal/internal/datadir"
)

// TestLoadEveryManifestFile checks every KEEL file against the manifest's
// table: rows, features, positives and the positive label.
func TestLoadEveryManifestFile(t *testing.T) {
	dir := datadir.Path(t, "data", "keel")
	want := []struct {
		file                      string
		rows, features, positives int
		label                     string
	}{
		{"sonar.dat", 208, 60, 97, "R"},
		{"glass1.dat", 214, 9, 76, "positive"},
		{"pima.dat", 768, 8, 268, "positive"},
		{"iris0.dat", 150, 4, 50, "positive"},
		{"ecoli1.dat", 336, 7, 77, "positive"},
		{"glass6.dat", 214, 9, 29, "positive"},
		{"ecoli3.dat", 336, 7, 35, "positive"},
		{"satimage.dat", 6435, 36, 626, "4"},
		{"ecoli4.dat", 336, 7, 20, "positive"},
		{"glass4.dat", 214, 9, 13, "positive"},
		{"yeast5.dat", 1484, 8, 44, "positive"},
		{"yeast6.dat", 1484, 8, 35, "positive"},
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.dat"))
	if len(files) != len(want) {
		t.Errorf("%d .dat files in %s, the manifest lists %d", len(files), dir, len(want))
	}
	for _, w := range want {
		t.Run(w.file, func(t *testing.T) {
			d, err := Load(filepath.Join(dir, w.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(d.X) != w.rows || len(d.Inputs) != w.features || d.Positives() != w.positives || d.Positive != w.label {
				t.Errorf("rows %d features %d positives %d label %q; want %d %d %d %q",
					len(d.X), len(d.Inputs), d.Positives(), d.Positive, w.rows, w.features, w.positives, w.label)
			}
			for i, x := range d.X {
				if len(x) != w.features {
					t.Fatalf("row %d has %d features", i, len(x))
				}
			}
		})
	}
}

const good = "@relation toy\r\n" +
	"@attribute a real [0.0, 1.0]\r\n" +
	"@attribute b integer [1, 3]\r\n" +
	"@attribute colour {red, green}\r\n" +
	"@attribute Class  {positive, negative, unused}   \r\n" +
	"@inputs a, b, colour\r\n" +
	"@outputs Class\r\n" +
	"@data\r\n" +
	"0.5, 1, green, positive  \r\n" +
	"% a comment\r\n" +
	"1.5894573E-8,3,red,negative"

func TestParseQuirks(t *testing.T) {
	d, err := Parse(strings.NewReader(good), "toy.dat")
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "toy" || d.Output != "Class" || len(d.X) != 2 || !d.Y[0] || d.Y[1] {
		t.Fatalf("got %+v", d)
	}
	if d.X[0][2] != 1 || d.X[1][2] != 0 { // nominal inputs: position in the declared list
		t.Errorf("nominal encoding: %v %v", d.X[0], d.X[1])
	}
	if d.X[1][0] != 1.5894573e-8 || d.X[1][1] != 3 {
		t.Errorf("numbers: %v", d.X[1])
	}
	if a := d.Attributes[0]; !a.HasRange || a.Min != 0 || a.Max != 1 {
		t.Errorf("range: %+v", a)
	}
}

func TestParseWithoutInputsOutputsUsesLastAttribute(t *testing.T) {
	src := "@relation sonar\n@attribute x real\n@attribute Type{R, M}\n@data\n1,R\n2,M\n"
	d, err := Parse(strings.NewReader(src), "s.dat")
	if err != nil {
		t.Fatal(err)
	}
	if d.Output != "Type" || d.Positive != "R" || !d.Y[0] || d.Y[1] {
		t.Errorf("got output %q positive %q y %v", d.Output, d.Positive, d.Y)
	}
}

func TestParseRejectsMalformed(t *testing.T) {
	head := "@relation r\n@attribute x real\n@attribute y real\n@attribute Class {positive, negative}\n@data\n"
	cases := []struct {
		name, src, want string
		sentinel        error
	}{
		{"no data section", "@relation r\n@attribute x real\n", "no @data", ErrFormat},
		{"no rows", head, "no data rows", ErrFormat},
		{"too few fields", head + "1, positive\n", ":6: 2 fields, want 3", ErrFormat},
		{"not a number", head + "1, abc, positive\n", `:6: field 2 (y): "abc" is not a finite number`, ErrFormat},
		{"NaN", head + "NaN, 1, positive\n", "not a finite number", ErrFormat},
		{"missing value", head + "?, 1, positive\n", "missing value", ErrFormat},
		{"undeclared class", head + "1, 2, maybe\n", `class "maybe" is not one of the declared values`, ErrFormat},
		{"unknown keyword", "@relation r\n@foo bar\n", `:2: unknown keyword "@foo"`, ErrFormat},
		{"unknown type", "@relation r\n@attribute x string\n", `unknown type "string"`, ErrFormat},
		{"bad range", "@relation r\n@attribute x real [1, a]\n", "range maximum", ErrFormat},
		{"empty range", "@relation r\n@attribute x real [2, 1]\n", "is empty", ErrFormat},
		{"unclosed nominal", "@relation r\n@attribute c {a, b\n", "closing }", ErrFormat},
		{"text before header", "hello\n", "expected a header line", ErrFormat},
		{"data before relation", "@attribute x real\n@attribute c {a}\n@data\n", "@data before @relation", ErrFormat},
		{"unknown output", "@relation r\n@attribute x real\n@attribute c {positive}\n@outputs z\n@data\n1,positive\n", `output "z" is not`, ErrFormat},
		{"numeric output", "@relation r\n@attribute x real\n@attribute c real\n@data\n1,2\n", "want nominal classes", ErrFormat},
		{"duplicate attribute", "@relation r\n@attribute x real\n@attribute x real\n", "declared twice", ErrFormat},
		{"no positive label", "@relation r\n@attribute x real\n@attribute c {a, b}\n@data\n1,a\n", `does not declare "positive"`, ErrNoPositive},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(c.src), "bad.dat")
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, c.sentinel) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "bad.dat") {
				t.Errorf("error %q: want %v containing %q and the file name", err, c.sentinel, c.want)
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "none.dat")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("got %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte("@relation sonar\n@attribute x real\n@attribute Type{R, M}\n@data\n1,R\n2,M"))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := Parse(strings.NewReader(string(b)), "fuzz.dat")
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrNoPositive) {
				t.Fatalf("error without a sentinel: %v", err)
			}
			return
		}
		if len(d.X) == 0 || len(d.X) != len(d.Y) || len(d.X) != len(d.Labels) {
			t.Fatalf("inconsistent dataset: %d rows %d labels", len(d.X), len(d.Y))
		}
		for _, x := range d.X {
			if len(x) != len(d.Inputs) {
				t.Fatalf("row of %d features, %d inputs", len(x), len(d.Inputs))
			}
			for _, v := range x {
				if v != v {
					t.Fatal("NaN feature")
				}
			}
		}
	})
}
