package dayone_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/features"
	"github.com/ictal/ictal/internal/bonn"
	"github.com/ictal/ictal/internal/datadir"
	"github.com/ictal/ictal/internal/dayone"
	"github.com/ictal/ictal/internal/dayone/recipe"
	"github.com/ictal/ictal/internal/modelfile"
)

// TestRebuildsByteForByte: the documented command's build, from the Bonn
// segments read in place, gives the embedded file's bytes exactly.
func TestRebuildsByteForByte(t *testing.T) {
	segs, err := bonn.Load(datadir.Path(t, "data", "eeg", "bonn"), "Z", "O", "N", "F", "S")
	if err != nil {
		t.Fatal(err)
	}
	meta, d, err := recipe.Build(segs, "", features.Config{}, classifier.Config{}, dayone.Seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := modelfile.Encode(meta, d.Model)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, dayone.Bytes()) {
		t.Errorf("rebuilt model (%d bytes) differs from internal/dayone/bonn.model (%d bytes): rebuild it with the command in the package doc", len(b), len(dayone.Bytes()))
	}
}

// TestShippedModel: the embedded model loads, is per-channel with the
// default features, records its provenance and a decision rule, and is
// small.
func TestShippedModel(t *testing.T) {
	meta, m, err := dayone.Load()
	if err != nil {
		t.Fatal(err)
	}
	if !meta.PerChannel() || meta.Rule == nil || meta.Scoring.Population == nil || len(meta.Channels) != 0 ||
		m.Config().Features != len(features.AllFeatures()) || meta.Program != "ictal bonn day-one" {
		j, _ := json.Marshal(meta)
		t.Errorf("embedded model: %s", j)
	}
	seizures := 0
	for _, r := range meta.Training {
		seizures += r.Seizures
	}
	if len(meta.Training) != 5 || seizures != 80 {
		t.Errorf("training record %+v: want the five Bonn sets, 80 ictal segments", meta.Training)
	}
	if n := len(dayone.Bytes()); n > 1<<20 {
		t.Errorf("the embedded model is %d bytes", n)
	}
}
