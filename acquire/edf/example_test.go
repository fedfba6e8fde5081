package edf_test

import (
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/ictal/ictal/acquire"
	"github.com/ictal/ictal/acquire/edf"
)

// ExampleNewWriter writes two seconds of a two-channel EDF+ recording with a
// seizure annotation and reads it back.
func ExampleNewWriter() {
	dir, _ := os.MkdirTemp("", "edf")
	defer os.RemoveAll(dir)
	name := filepath.Join(dir, "example.edf")
	f, err := os.Create(name)
	if err != nil {
		log.Fatal(err)
	}
	w, err := edf.NewWriter(f, edf.WriterConfig{
		Start:          time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC),
		RecordDuration: time.Second,
		Signals: []edf.SignalSpec{
			{Label: "EEG Fp1-F7", PhysicalDimension: "uV", PhysicalMin: -500, PhysicalMax: 500, DigitalMin: -5000, DigitalMax: 5000, SamplesPerRecord: 4},
			{Label: "EEG F7-T7", PhysicalDimension: "uV", PhysicalMin: -500, PhysicalMax: 500, SamplesPerRecord: 4},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	w.Annotate(500*time.Millisecond, time.Second, "seizure")
	for k := 0; k < 8; k++ {
		w.WriteFrame([]float64{float64(10 * k), float64(-10 * k)})
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	f.Close()

	r, err := edf.Open(name)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	h := r.Header()
	fmt.Println(h.Format(), h.Records, "records of", h.RecordDuration, h.Start.Format(time.RFC3339))
	rec := r.NewRecord()
	for r.ReadRecord(rec) == nil {
		fmt.Printf("record %d at %v: %.1f\n", rec.Index, rec.Onset, rec.Samples[0])
	}
	anns, _ := r.Annotations()
	for _, a := range anns {
		fmt.Printf("%v +%v %s\n", a.Onset, a.Duration, a.Text)
	}
	// Output:
	// EDF+C 2 records of 1s 2026-11-21T09:00:00Z
	// record 0 at 0s: [0.0 10.0 20.0 30.0]
	// record 1 at 1s: [40.0 50.0 60.0 70.0]
	// 500ms +1s seizure
}

// ExampleAppendTALs decodes the annotation bytes of one data record.
func ExampleAppendTALs() {
	raw := []byte("+12\x14\x14\x00+12.5\x155\x14seizure onset\x14\x00+13\x14spike\x14eyes open\x14\x00\x00\x00")
	anns, err := edf.AppendTALs(nil, raw)
	if err != nil {
		log.Fatal(err)
	}
	for _, a := range anns {
		fmt.Printf("%v %v %v %q\n", a.Onset, a.HasDuration, a.Duration, a.Text)
	}
	onset, _ := edf.FirstOnset(raw)
	fmt.Println("record starts at", onset)
	// Output:
	// 12.5s true 5s "seizure onset"
	// 13s false 0s "spike"
	// 13s false 0s "eyes open"
	// record starts at 12s
}

// ExampleOpenReplay serves a recording as an acquire.Source, as fast as
// possible.
func ExampleOpenReplay() {
	dir, _ := os.MkdirTemp("", "edf")
	defer os.RemoveAll(dir)
	name := filepath.Join(dir, "replay.edf")
	f, _ := os.Create(name)
	w, _ := edf.NewWriter(f, edf.WriterConfig{
		RecordDuration: time.Second,
		Signals: []edf.SignalSpec{
			{Label: "EEG C3", PhysicalDimension: "mV", PhysicalMin: -1, PhysicalMax: 1, SamplesPerRecord: 2},
			{Label: "ECG", PhysicalDimension: "mV", PhysicalMin: -5, PhysicalMax: 5, SamplesPerRecord: 1},
		},
	})
	w.Annotate(time.Second, 500*time.Millisecond, "Seizure (focal)")
	w.WriteRecord([][]float64{{0.25, -0.25}, {1}})
	w.WriteRecord([][]float64{{0.5, -0.5}, {1}})
	w.Close()
	f.Close()

	src, err := edf.OpenReplay(name, edf.ReplayConfig{})
	if err != nil {
		log.Fatal(err)
	}
	defer src.Close()
	fmt.Printf("%+v\n", src.Info().Channels)
	for _, s := range src.Skipped() {
		fmt.Println("skipped:", s.Label, "-", s.Reason)
	}
	frame := acquire.NewFrame(len(src.Info().Channels))
	for src.ReadFrame(frame) != io.EOF {
		fmt.Printf("seq %d at %v: %.0f %s\n", frame.Seq, frame.Time, frame.Samples, frame.Flags)
	}
	fmt.Printf("%+v\n", src.Intervals())
	// Output:
	// [{Label:EEG C3 Unit:uV Rate:2}]
	// skipped: ECG - rate 1 Hz differs from the common 2 Hz
	// skipped: EDF Annotations - annotation signal
	// seq 0 at 0s: [250] ok
	// seq 1 at 500ms: [-250] ok
	// seq 2 at 1s: [500] ok
	// seq 3 at 1.5s: [-500] ok
	// [{Start:1s End:1.5s Text:Seizure (focal) Seizure:true}]
}
