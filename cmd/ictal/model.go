package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/ictal/ictal/classifier"
	"github.com/ictal/ictal/internal/modelfile"
)

// runModel implements `ictal model info FILE`.
func runModel(args []string, stdout, stderr io.Writer) error {
	if err := needSubcommand(args, "usage: ictal model info FILE", "missing subcommand (info)", stderr); err != nil {
		return err
	}
	switch args[0] {
	case "info":
		return runModelInfo(args[1:], stdout, stderr)
	}
	return fmt.Errorf("unknown subcommand %q (want info)", args[0])
}

// legacyInfo is what `model info` prints for a file without metadata.
type legacyInfo struct {
	Type       string            `json:"type"` // "model-info"
	Legacy     bool              `json:"legacy"`
	Classifier classifier.Config `json:"classifier"`
}

// runModelInfo prints a model file's metadata (modelfile.Meta) as
// indented JSON. The file's checksum is checked; its model is loaded only
// for a file without metadata, whose classifier configuration is all
// there is to print.
func runModelInfo(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("model info", "usage: ictal model info FILE\n\nPrints how the model in FILE (from `ictal train`, `ictal replay -o` or an\nictald checkpoint) was built, as JSON: the features, conditioning, sample\nrate and channels it expects, the classifier, the recordings it was trained\non and the program that wrote it. A file written before models carried this\nprints {\"legacy\": true, \"classifier\": …}.", stderr)
	if err := parseArgs(fs, args, 1, "one model file is required"); err != nil {
		return err
	}
	path := fs.Arg(0)
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	meta, err := modelfile.DecodeMeta(b)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	var v any = struct {
		Type string `json:"type"`
		*modelfile.Meta
	}{"model-info", &meta}
	if meta.Legacy {
		v = legacyInfo{Type: "model-info", Legacy: true, Classifier: meta.Classifier}
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	_, err = fmt.Fprintf(stdout, "%s\n", out)
	return err
}
