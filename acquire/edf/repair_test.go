package edf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// memFile is an in-memory RepairFile.
type memFile struct{ b []byte }

func (m *memFile) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(m.b)) {
		return 0, io.EOF
	}
	n := copy(p, m.b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (m *memFile) WriteAt(p []byte, off int64) (int, error) {
	if need := int(off) + len(p); need > len(m.b) {
		m.b = append(m.b, make([]byte, need-len(m.b))...)
	}
	return copy(m.b[off:], p), nil
}

func (m *memFile) Truncate(n int64) error {
	m.b = m.b[:n]
	return nil
}

// written returns a file of n one-second records of two signals at 4 Hz
// with one annotation, written with every, cut after its n records (Close
// not called).
func written(t *testing.T, n int, every bool) (*seekBuffer, *Writer) {
	t.Helper()
	var buf seekBuffer
	cfg := uniformConfig(4)
	cfg.CountEveryRecord = every
	w, err := NewWriter(&buf, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Annotate(0, 0, "start"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4*n; i++ {
		if err := w.WriteFrame([]float64{float64(i), -float64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	return &buf, w
}

// TestCountEveryRecord checks that with CountEveryRecord the header
// declares the records written after each one, without Close, and
// without it says -1.
func TestCountEveryRecord(t *testing.T) {
	for _, every := range []bool{true, false} {
		buf, w := written(t, 3, every)
		h, err := ParseHeader(bytes.NewReader(buf.b))
		if err != nil {
			t.Fatal(err)
		}
		want := int64(-1)
		if every {
			want = 3
		}
		if h.Records != want || w.Records() != 3 {
			t.Errorf("every=%v: header declares %d records, want %d (writer wrote %d)", every, h.Records, want, w.Records())
		}
		if got := int64(len(buf.b)); got != int64(h.HeaderBytes)+3*int64(w.RecordBytes()) {
			t.Errorf("every=%v: file has %d bytes, want header %d + 3 records of %d", every, got, h.HeaderBytes, w.RecordBytes())
		}
		// Writing goes on at the end of the data.
		for i := 0; i < 4; i++ {
			w.WriteFrame([]float64{1, 1})
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if r := buf.reader(t); r.Header().Records != 4 {
			t.Errorf("every=%v: %d records after Close, want 4", every, r.Header().Records)
		}
	}
}

// TestWriteFrameCountEveryRecordAllocatesNothing: with the record count
// written after each record and the bookkeeping sized up front, writing
// allocates nothing, also when records complete.
func TestWriteFrameCountEveryRecordAllocatesNothing(t *testing.T) {
	buf := seekBuffer{b: make([]byte, 0, 1<<20)} // room for every record: the buffer does not grow
	cfg := uniformConfig(4)
	cfg.CountEveryRecord, cfg.ExpectedRecords = true, 1000
	w, _ := NewWriter(&buf, cfg)
	frame := []float64{1, 2}
	if n := testing.AllocsPerRun(4*500, func() { w.WriteFrame(frame) }); n != 0 {
		t.Errorf("WriteFrame allocates %v times per frame", n)
	}
}

// TestRepair cuts a file written without Close at every byte of its last
// record and checks Repair leaves exactly the complete records, readable,
// with the right count, for both header modes.
func TestRepair(t *testing.T) {
	for _, every := range []bool{true, false} {
		buf, w := written(t, 3, every)
		full := buf.b
		rb := int64(w.RecordBytes())
		hb := int64(w.Header().HeaderBytes)
		for cut := hb + 2*rb; cut <= int64(len(full)); cut++ {
			f := &memFile{b: bytes.Clone(full[:cut])}
			got, err := Repair(f, cut)
			if err != nil {
				t.Fatalf("every=%v cut %d: %v", every, cut, err)
			}
			wantRec := (cut - hb) / rb
			if got.Records != wantRec || got.Dropped != (cut-hb)%rb || int64(len(f.b)) != hb+wantRec*rb {
				t.Fatalf("every=%v cut %d: %+v, file %d bytes; want %d records", every, cut, got, len(f.b), wantRec)
			}
			r, err := NewReader(bytes.NewReader(f.b), int64(len(f.b)))
			if err != nil {
				t.Fatal(err)
			}
			if r.Header().Records != wantRec || r.Truncated() != nil || len(r.Header().Warnings) != 0 {
				t.Fatalf("every=%v cut %d: reads %d records, truncated %v, warnings %v", every, cut, r.Header().Records, r.Truncated(), r.Header().Warnings)
			}
			h, _ := ParseHeader(bytes.NewReader(f.b))
			if h.Records != wantRec {
				t.Fatalf("every=%v cut %d: header declares %d", every, cut, h.Records)
			}
			ann, err := r.Annotations()
			if err != nil || len(ann) != 1 || ann[0].Text != "start" {
				t.Fatalf("every=%v cut %d: annotations %v, %v", every, cut, ann, err)
			}
			again, err := Repair(f, int64(len(f.b)))
			if err != nil || again.Changed() {
				t.Fatalf("every=%v cut %d: a repaired file repaired again: %+v, %v", every, cut, again, err)
			}
		}
	}
}

// TestRepairRefusesGarbage: a file that is not EDF is an ErrHeader error
// and is not changed.
func TestRepairRefusesGarbage(t *testing.T) {
	f := &memFile{b: []byte("not an EDF file at all")}
	if _, err := Repair(f, int64(len(f.b))); !errors.Is(err, ErrHeader) {
		t.Errorf("Repair: %v, want ErrHeader", err)
	}
	if string(f.b) != "not an EDF file at all" {
		t.Errorf("file changed: %q", f.b)
	}
}

// FuzzRepair feeds arbitrary files to Repair: it must never panic, and a
// file it accepts must then read as exactly its complete records.
func FuzzRepair(f *testing.F) {
	for _, every := range []bool{true, false} {
		buf, _ := written(&testing.T{}, 2, every)
		f.Add(buf.b)
		f.Add(buf.b[:len(buf.b)-5])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m := &memFile{b: bytes.Clone(b)}
		got, err := Repair(m, int64(len(b)))
		if err != nil {
			return
		}
		r, err := NewReader(bytes.NewReader(m.b), int64(len(m.b)))
		if err != nil {
			t.Fatalf("repaired file does not open: %v (%+v)", err, got)
		}
		if r.Header().Records != got.Records || r.Truncated() != nil {
			t.Fatalf("repaired file reads %d records (truncated %v), Repair said %+v", r.Header().Records, r.Truncated(), got)
		}
	})
}

// TestWriteRepairSeeds writes FuzzRepair's seed files when
// ICTAL_WRITE_SEEDS is set (go test -run WriteRepairSeeds).
func TestWriteRepairSeeds(t *testing.T) {
	dir := os.Getenv("ICTAL_WRITE_SEEDS")
	if dir == "" {
		t.Skip("ICTAL_WRITE_SEEDS not set")
	}
	for _, every := range []bool{true, false} {
		buf, _ := written(t, 2, every)
		name := fmt.Sprintf("count-every-%v", every)
		os.WriteFile(filepath.Join(dir, name), []byte(fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", buf.b[:len(buf.b)-5])), 0o644)
	}
}
