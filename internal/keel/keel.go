package keel

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Errors wrapped by Parse and Load.
var (
	// ErrFormat marks a malformed file.
	ErrFormat = errors.New("keel: malformed file")
	// ErrNoPositive means no label of the output attribute is the
	// positive class under the rule of the package comment.
	ErrNoPositive = errors.New("keel: no positive class")
)

// PositiveLabels maps a relation name to its positive (minority) label
// when that label is not "positive".
var PositiveLabels = map[string]string{
	"sonar":    "R",
	"satimage": "4",
}

// Attribute is one declared attribute.
type Attribute struct {
	Name string
	Type string // "real", "integer" or "nominal"
	// Values lists a nominal attribute's declared values, in order.
	Values []string
	// Min and Max are the declared range, when HasRange.
	Min, Max float64
	HasRange bool
}

// Dataset is a parsed KEEL file as a binary classification set.
type Dataset struct {
	Name       string      // the @relation name
	Attributes []Attribute // every attribute, in declaration order
	Inputs     []string    // input attribute names, in feature order
	Output     string      // the class attribute's name
	Positive   string      // the positive label
	X          [][]float64 // rows of len(Inputs) features
	Y          []bool      // true for the positive class
	Labels     []string    // each row's class label as written
}

// Positives returns the number of positive rows.
func (d *Dataset) Positives() int {
	n := 0
	for _, y := range d.Y {
		if y {
			n++
		}
	}
	return n
}

// Load reads the KEEL file at path.
func Load(path string) (*Dataset, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("keel: %w", err)
	}
	return Parse(bytes.NewReader(b), filepath.Base(path))
}

// parser is the state of one Parse call.
type parser struct {
	file string
	line int
}

func (p *parser) errorf(format string, a ...any) error {
	return fmt.Errorf("%w: %s:%d: %s", ErrFormat, p.file, p.line, fmt.Sprintf(format, a...))
}

// Parse reads a KEEL file from r; file names it in errors.
func Parse(r io.Reader, file string) (*Dataset, error) {
	p := &parser{file: file}
	d := &Dataset{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	var inputs, outputs []string
	inData, haveRelation := false, false
	var cols []int // attribute index of each input
	var outCol int // attribute index of the output
	var width int  // fields per row
	for sc.Scan() {
		p.line++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "%") {
			continue
		}
		if inData {
			if err := p.row(d, line, cols, outCol, width); err != nil {
				return nil, err
			}
			continue
		}
		if !strings.HasPrefix(line, "@") {
			return nil, p.errorf("expected a header line starting with @, got %q", clip(line))
		}
		kw, rest := splitKeyword(line)
		switch kw {
		case "@relation":
			if rest == "" {
				return nil, p.errorf("@relation without a name")
			}
			d.Name, haveRelation = rest, true
		case "@attribute":
			a, err := p.attribute(rest)
			if err != nil {
				return nil, err
			}
			for _, b := range d.Attributes {
				if b.Name == a.Name {
					return nil, p.errorf("attribute %q declared twice", a.Name)
				}
			}
			d.Attributes = append(d.Attributes, a)
		case "@inputs":
			inputs = splitList(rest)
		case "@outputs", "@output":
			outputs = splitList(rest)
		case "@data":
			if !haveRelation {
				return nil, p.errorf("@data before @relation")
			}
			var err error
			cols, outCol, err = p.resolve(d, inputs, outputs)
			if err != nil {
				return nil, err
			}
			width = len(d.Attributes)
			inData = true
		default:
			return nil, p.errorf("unknown keyword %q", kw)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %s:%d: %v", ErrFormat, file, p.line+1, err)
	}
	if !inData {
		return nil, p.errorf("no @data section")
	}
	if len(d.X) == 0 {
		return nil, p.errorf("no data rows")
	}
	return d, p.positive(d)
}

// splitKeyword splits "@keyword rest" into a lower-case keyword and the
// trimmed rest.
func splitKeyword(line string) (string, string) {
	i := strings.IndexAny(line, " \t{")
	if i < 0 {
		return strings.ToLower(line), ""
	}
	return strings.ToLower(line[:i]), strings.TrimSpace(line[i:])
}

// splitList splits a comma-separated list, trimming blanks.
func splitList(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	f := strings.Split(s, ",")
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	return f
}

// attribute parses the text after "@attribute".
func (p *parser) attribute(s string) (Attribute, error) {
	i := strings.IndexAny(s, " \t{[")
	if i <= 0 {
		return Attribute{}, p.errorf("@attribute %q: want a name and a type", clip(s))
	}
	a := Attribute{Name: s[:i]}
	rest := strings.TrimSpace(s[i:])
	if strings.HasPrefix(rest, "{") {
		if !strings.HasSuffix(rest, "}") {
			return a, p.errorf("attribute %q: nominal list without a closing }", a.Name)
		}
		a.Type = "nominal"
		a.Values = splitList(rest[1 : len(rest)-1])
		if len(a.Values) == 0 {
			return a, p.errorf("attribute %q: empty nominal list", a.Name)
		}
		for _, v := range a.Values {
			if v == "" {
				return a, p.errorf("attribute %q: empty nominal value", a.Name)
			}
		}
		return a, nil
	}
	typ, rng := rest, ""
	if j := strings.IndexAny(rest, " \t["); j >= 0 {
		typ, rng = rest[:j], strings.TrimSpace(rest[j:])
	}
	switch t := strings.ToLower(typ); t {
	case "real", "integer", "numeric":
		a.Type = t
		if t == "numeric" {
			a.Type = "real"
		}
	default:
		return a, p.errorf("attribute %q: unknown type %q (want real, integer or {...})", a.Name, typ)
	}
	if rng == "" {
		return a, nil
	}
	if !strings.HasPrefix(rng, "[") || !strings.HasSuffix(rng, "]") {
		return a, p.errorf("attribute %q: range %q: want [min, max]", a.Name, clip(rng))
	}
	lim := splitList(rng[1 : len(rng)-1])
	if len(lim) != 2 {
		return a, p.errorf("attribute %q: range %q: want two numbers", a.Name, clip(rng))
	}
	var err error
	if a.Min, err = strconv.ParseFloat(lim[0], 64); err != nil {
		return a, p.errorf("attribute %q: range minimum %q is not a number", a.Name, lim[0])
	}
	if a.Max, err = strconv.ParseFloat(lim[1], 64); err != nil {
		return a, p.errorf("attribute %q: range maximum %q is not a number", a.Name, lim[1])
	}
	if a.Min > a.Max {
		return a, p.errorf("attribute %q: range [%g, %g] is empty", a.Name, a.Min, a.Max)
	}
	a.HasRange = true
	return a, nil
}

// resolve maps the @inputs and @outputs names to attribute indices.
func (p *parser) resolve(d *Dataset, inputs, outputs []string) ([]int, int, error) {
	if len(d.Attributes) < 2 {
		return nil, 0, p.errorf("%d attributes declared, want at least an input and an output", len(d.Attributes))
	}
	index := func(name string) int {
		for i, a := range d.Attributes {
			if a.Name == name {
				return i
			}
		}
		return -1
	}
	out := len(d.Attributes) - 1
	if len(outputs) > 1 {
		return nil, 0, p.errorf("%d output attributes, want one", len(outputs))
	}
	if len(outputs) == 1 {
		if out = index(outputs[0]); out < 0 {
			return nil, 0, p.errorf("output %q is not a declared attribute", outputs[0])
		}
	}
	if d.Attributes[out].Type != "nominal" {
		return nil, 0, p.errorf("output %q is %s, want nominal classes", d.Attributes[out].Name, d.Attributes[out].Type)
	}
	var cols []int
	if inputs == nil {
		for i := range d.Attributes {
			if i != out {
				cols = append(cols, i)
			}
		}
	} else {
		for _, n := range inputs {
			i := index(n)
			switch {
			case i < 0:
				return nil, 0, p.errorf("input %q is not a declared attribute", n)
			case i == out:
				return nil, 0, p.errorf("attribute %q is both an input and the output", n)
			}
			cols = append(cols, i)
		}
	}
	if len(cols) == 0 {
		return nil, 0, p.errorf("no input attributes")
	}
	d.Output = d.Attributes[out].Name
	for _, c := range cols {
		d.Inputs = append(d.Inputs, d.Attributes[c].Name)
	}
	return cols, out, nil
}

// row parses one data row.
func (p *parser) row(d *Dataset, line string, cols []int, out, width int) error {
	f := splitList(line)
	if len(f) != width {
		return p.errorf("%d fields, want %d", len(f), width)
	}
	x := make([]float64, len(cols))
	for k, c := range cols {
		a := &d.Attributes[c]
		v := f[c]
		if v == "?" {
			return p.errorf("field %d (%s): missing value", c+1, a.Name)
		}
		if a.Type == "nominal" {
			j := slices.Index(a.Values, v)
			if j < 0 {
				return p.errorf("field %d (%s): %q is not one of the declared values", c+1, a.Name, clip(v))
			}
			x[k] = float64(j)
			continue
		}
		n, err := strconv.ParseFloat(v, 64)
		if err != nil || n != n || n > 1.7976931348623157e308 || n < -1.7976931348623157e308 {
			return p.errorf("field %d (%s): %q is not a finite number", c+1, a.Name, clip(v))
		}
		x[k] = n
	}
	label := f[out]
	if slices.Index(d.Attributes[out].Values, label) < 0 {
		return p.errorf("field %d (%s): class %q is not one of the declared values", out+1, d.Attributes[out].Name, clip(label))
	}
	d.X = append(d.X, x)
	d.Labels = append(d.Labels, label)
	return nil
}

// positive applies the positive-class rule and fills d.Y.
func (p *parser) positive(d *Dataset) error {
	pos, ok := PositiveLabels[d.Name]
	if !ok {
		pos = "positive"
	}
	var out *Attribute
	for i := range d.Attributes {
		if d.Attributes[i].Name == d.Output {
			out = &d.Attributes[i]
		}
	}
	if slices.Index(out.Values, pos) < 0 {
		return fmt.Errorf("%w: %s: relation %q: class %q does not declare %q (and the relation has no entry in keel.PositiveLabels)",
			ErrNoPositive, p.file, d.Name, d.Output, pos)
	}
	d.Positive = pos
	d.Y = make([]bool, len(d.Labels))
	for i, l := range d.Labels {
		d.Y[i] = l == pos
	}
	return nil
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
