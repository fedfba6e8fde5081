package paper

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ictal/ictal/internal/datadir"
)

func TestLoadDataFolderAndErrors(t *testing.T) {
	ds, err := LoadData([]string{datadir.Path(t, "data", "keel")})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 12 || ds[0].Name != "ecoli1" {
		t.Errorf("%d data sets, first %q", len(ds), ds[0].Name)
	}
	if _, err := LoadData([]string{t.TempDir()}); err == nil {
		t.Error("empty folder accepted")
	}
	p := datadir.Path(t, "data", "keel", "iris0.dat")
	if _, err := LoadData([]string{p, p}); err == nil {
		t.Error("a data set given twice accepted")
	}
	missing := filepath.Join(t.TempDir(), "none.dat")
	if _, err := LoadData([]string{missing}); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("a missing file: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.dat")
	if err := os.WriteFile(bad, []byte("not KEEL\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadData([]string{bad}); err == nil || !strings.Contains(err.Error(), "bad.dat") {
		t.Errorf("a file that is not KEEL: %v", err)
	}
}
