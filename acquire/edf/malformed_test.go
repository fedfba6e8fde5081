package edf

import (
	"bytes"
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
)

// edfPlusC reads the 20-record EDF+C conformance file into memory: 12
// signals (11 × 200 samples, then "EDF Annotations" × 51), header 3328
// bytes, records of 4502 bytes, the annotation signal at byte 4400 of each.
func edfPlusC(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(conformance(t, "edfreader-r/edfPlusC.edf"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const (
	plusCHeader  = 3328
	plusCRecord  = 4502
	plusCAnnotAt = 4400
	plusCSignals = 12
)

// setField overwrites a header field with text padded by spaces.
func setField(b []byte, off, width int, text string) {
	copy(b[off:off+width], pad(text, width))
}

// signalField returns the offset of field f (by name) of signal i.
func signalField(name string, i int) (off, width int) {
	off = 256
	for _, f := range signalFields {
		if f.name == name {
			return off + i*f.width, f.width
		}
		off += plusCSignals * f.width
	}
	panic("no field " + name)
}

func setSignal(b []byte, name string, i int, text string) {
	off, w := signalField(name, i)
	setField(b, off, w, text)
}

// TestMalformedHeader mutates a valid file and checks each error names the
// field and its byte offset.
func TestMalformedHeader(t *testing.T) {
	tests := []struct {
		name   string
		mutate func([]byte) []byte
		want   string // substring of the error
	}{
		{"wrong header size", func(b []byte) []byte { setField(b, 184, 8, "3072"); return b },
			`number of header bytes at byte 184: 3072: 12 signals need 256·(12+1) = 3328`},
		{"non-numeric header size", func(b []byte) []byte { setField(b, 184, 8, "12a4"); return b },
			`number of header bytes at byte 184: "12a4": not an integer`},
		{"unknown version", func(b []byte) []byte { setField(b, 0, 8, "1"); return b },
			`version at byte 0`},
		{"bad record count", func(b []byte) []byte { setField(b, 236, 8, "abc"); return b },
			`number of data records at byte 236: "abc": not an integer`},
		{"negative record count", func(b []byte) []byte { setField(b, 236, 8, "-5"); return b },
			`number of data records at byte 236: -5: negative`},
		{"bad record duration", func(b []byte) []byte { setField(b, 244, 8, "1,5"); return b },
			`duration of a data record at byte 244: "1,5": not a decimal number`},
		{"negative record duration", func(b []byte) []byte { setField(b, 244, 8, "-1"); return b },
			`duration of a data record at byte 244: "-1": unexpected sign`},
		{"zero signals", func(b []byte) []byte { setField(b, 252, 4, "0"); return b },
			`number of signals at byte 252: 0: want 1 to 9999`},
		{"bad digital minimum", func(b []byte) []byte { setSignal(b, "digital minimum", 3, "abc"); return b },
			`signal 3 "ECG": digital minimum at byte 1720: "abc": not an integer`},
		{"digital minimum outside 16 bits", func(b []byte) []byte { setSignal(b, "digital minimum", 0, "-40000"); return b },
			`signal 0 "squarewave": digital minimum at byte 1696: -40000: outside the 16-bit range -32768..32767`},
		{"digital minimum equals maximum", func(b []byte) []byte { setSignal(b, "digital minimum", 2, "32767"); return b },
			`signal 2 "pulse": digital minimum at byte 1712: 32767 is not below the digital maximum 32767`},
		{"physical minimum equals maximum", func(b []byte) []byte { setSignal(b, "physical minimum", 5, "1000"); return b },
			`signal 5 "sine 1 Hz": physical minimum at byte 1544: 1000 equals the physical maximum`},
		{"physical maximum NaN", func(b []byte) []byte { setSignal(b, "physical maximum", 1, "NaN"); return b },
			`signal 1 "ramp": physical maximum at byte 1608: "NaN": not a finite number`},
		{"zero samples per record", func(b []byte) []byte { setSignal(b, "number of samples", 4, "0"); return b },
			`signal 4 "noise": number of samples at byte 2880: 0: want a positive count`},
		{"short main header", func(b []byte) []byte { return b[:200] },
			`file has 200 bytes, a header needs at least 256`},
		{"short signal header", func(b []byte) []byte { return b[:1000] },
			`header of 12 signals needs 3328 bytes, file has 1000`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.mutate(edfPlusC(t))
			_, err := NewReader(bytes.NewReader(b), int64(len(b)))
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if !errors.Is(err, ErrHeader) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q\nwant ErrHeader containing %q", err, tt.want)
			}
			// The stream reader reports the same.
			if _, err2 := NewStreamReader(bytes.NewReader(b)); err2 == nil || err2.Error() != err.Error() {
				t.Errorf("stream reader error %v, want %v", err2, err)
			}
		})
	}
}

// TestRecordCount covers derived, truncated and surplus data.
func TestRecordCount(t *testing.T) {
	tests := []struct {
		name      string
		mutate    func([]byte) []byte
		records   int64
		truncated string // substring of Truncated(), "" for none
		warning   string
	}{
		{"declared", func(b []byte) []byte { return b }, 20, "", ""},
		{"unknown, derived from size", func(b []byte) []byte { setField(b, 236, 8, "-1"); return b }, 20, "", ""},
		{"unknown with partial last record", func(b []byte) []byte { setField(b, 236, 8, "-1"); return b[:len(b)-100] }, 19,
			"last data record has 4402 of 4502 bytes (100 missing)", ""},
		{"truncated", func(b []byte) []byte { return b[:len(b)-5000] }, 18,
			"header declares 20 data records of 4502 bytes, file holds 18 complete records and 4004 bytes more (5000 bytes missing)", ""},
		{"zero records", func(b []byte) []byte { setField(b, 236, 8, "0"); return b[:plusCHeader] }, 0, "", ""},
		{"trailing bytes", func(b []byte) []byte { return append(b, "junk"...) }, 20, "", "4 bytes after the last data record ignored"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.mutate(edfPlusC(t))
			r, err := NewReader(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Fatal(err)
			}
			if r.Header().Records != tt.records {
				t.Errorf("records %d, want %d", r.Header().Records, tt.records)
			}
			if w := strings.Join(r.Header().Warnings, "; "); w != tt.warning {
				t.Errorf("warnings %q, want %q", w, tt.warning)
			}
			tr := r.Truncated()
			if (tr != nil) != (tt.truncated != "") || tr != nil && (!errors.Is(tr, ErrTruncated) || !strings.Contains(tr.Error(), tt.truncated)) {
				t.Fatalf("Truncated() = %v, want %q", tr, tt.truncated)
			}
			// Reading to the end yields every complete record and then the
			// truncation error, never a silent io.EOF.
			rec := r.NewRecord()
			var n int64
			for err = r.ReadRecord(rec); err == nil; err = r.ReadRecord(rec) {
				n++
			}
			if n != tt.records {
				t.Errorf("read %d records, want %d", n, tt.records)
			}
			if tt.truncated != "" && err != tr || tt.truncated == "" && err != io.EOF {
				t.Errorf("end of data: %v", err)
			}
		})
	}
}

// TestStreamReader reads sequentially, including a stream that ends early.
func TestStreamReader(t *testing.T) {
	b := edfPlusC(t)
	r, err := NewStreamReader(bytes.NewReader(b[:len(b)-10]))
	if err != nil {
		t.Fatal(err)
	}
	rec := r.NewRecord()
	n := 0
	var anns []Annotation
	for err = r.ReadRecord(rec); err == nil; err = r.ReadRecord(rec) {
		if rec.Onset.Seconds() != float64(n) {
			t.Fatalf("record %d onset %v", n, rec.Onset)
		}
		if anns, err = rec.AppendAnnotations(anns); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if len(anns) != 2 || anns[0].Text != "RECORD START" || anns[0].Record != 0 || anns[0].Signal != 11 || anns[1].Text != "REC STOP" || anns[1].Record != 1 {
		t.Errorf("annotations %+v", anns)
	}
	if n != 19 || !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "stream ended in data record 19 of 20 after 4492 of its 4502 bytes") {
		t.Errorf("read %d records, then %v", n, err)
	}
	if err := r.ReadRecordAt(0, rec); !errors.Is(err, ErrSeek) {
		t.Errorf("ReadRecordAt on a stream: %v, want ErrSeek", err)
	}
	if _, err := r.Annotations(); !errors.Is(err, ErrSeek) {
		t.Errorf("Annotations on a stream: %v, want ErrSeek", err)
	}
	setField(b, 236, 8, "-1")
	if _, err := NewStreamReader(bytes.NewReader(b)); !errors.Is(err, ErrUnknownRecords) {
		t.Errorf("stream with -1 records: %v, want ErrUnknownRecords", err)
	}
}

// TestBrokenTALInFile damages the annotation signal of record 3 and checks
// that reading names the record, signal and byte.
func TestBrokenTALInFile(t *testing.T) {
	at := plusCHeader + 3*plusCRecord + plusCAnnotAt
	tests := []struct {
		name string
		tal  string
		want string
	}{
		{"onset without sign", "3\x14\x14\x00", `record 3, signal 11 "EDF Annotations": TAL at byte 0: onset "3": onset without '+' or '-' sign (file offset ` + itoa(at) + ")"},
		{"bad number", "+3x\x14\x14\x00", `TAL at byte 0: onset "+3x": not a decimal number`},
		{"missing 0x14", "+3\x00", `TAL at byte 2: onset not followed by 0x14 (file offset ` + itoa(at+2) + ")"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := edfPlusC(t)
			clear(b[at : at+102])
			copy(b[at:], tt.tal)
			r, err := NewReader(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Fatal(err)
			}
			rec := r.NewRecord()
			err = r.ReadRecordAt(3, rec)
			if !errors.Is(err, ErrTAL) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadRecordAt: %v\nwant ErrTAL containing %q", err, tt.want)
			}
			if _, err := r.Annotations(); !errors.Is(err, ErrTAL) || !strings.Contains(err.Error(), "record 3") {
				t.Errorf("Annotations: %v", err)
			}
			if err := r.ReadRecordAt(2, rec); err != nil {
				t.Errorf("record 2 is intact: %v", err)
			}
		})
	}
}

func itoa(n int) string { return string(appendInt(nil, n)) }

func appendInt(b []byte, n int) []byte {
	if n >= 10 {
		b = appendInt(b, n/10)
	}
	return append(b, byte('0'+n%10))
}

// headerOnlyHuge is the EDF+C file cut to its 3.3 KB header, declaring 0
// records of 11 × 3,600,000 samples (79 MB of 16-bit samples, 317 MB as
// float64) and 51 annotation samples.
func headerOnlyHuge(t testing.TB) []byte {
	b := edfPlusC(t)[:plusCHeader]
	setField(b, 236, 8, "0")
	for i := range plusCSignals - 1 {
		setSignal(b, "number of samples", i, "3600000")
	}
	return b
}

// TestHeaderOnlyFileAllocatesLittle: a header-only file that declares huge
// records is read (header, a record to read into, the records, the
// onsets, the annotations) allocating about what the file holds, not what
// its header declares. Before, NewRecord allocated 396 MB here.
func TestHeaderOnlyFileAllocatesLittle(t *testing.T) {
	b := headerOnlyHuge(t)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r, err := NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Header().RecordBytes(); got < 79e6 {
		t.Fatalf("the header declares records of %d bytes, want the 79 MB the test is about", got)
	}
	rec := r.NewRecord()
	if err := r.ReadRecord(rec); err != io.EOF {
		t.Errorf("ReadRecord: %v, want io.EOF", err)
	}
	if _, err := rec.AppendAnnotations(nil); err != nil {
		t.Errorf("AppendAnnotations of an unread record: %v", err)
	}
	if _, err := r.Onsets(); err != nil {
		t.Error(err)
	}
	if _, err := r.Annotations(); err != nil {
		t.Error(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("reading a %d-byte file allocated %d bytes", len(b), got)
	}
}
