package paper

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ictal/ictal/internal/keel"
)

// Data is one benchmark data set.
type Data struct {
	Name string // file name without .dat, e.g. "satimage"
	X    [][]float64
	Y    []bool
}

// LoadData reads KEEL files; a path that is a folder stands for its .dat
// files in name order. Data sets come back in the order given.
func LoadData(paths []string) ([]Data, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("paper: data %w", err)
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		m, err := filepath.Glob(filepath.Join(p, "*.dat"))
		if err != nil {
			return nil, fmt.Errorf("paper: data folder %s: %w", p, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("paper: data folder %s has no .dat file", p)
		}
		sort.Strings(m)
		files = append(files, m...)
	}
	out := make([]Data, 0, len(files))
	seen := map[string]string{}
	for _, f := range files {
		ds, err := keel.Load(f)
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		if prev, dup := seen[name]; dup {
			return nil, fmt.Errorf("paper: data set %q given twice (%s and %s)", name, prev, f)
		}
		seen[name] = f
		out = append(out, Data{Name: name, X: ds.X, Y: ds.Y})
	}
	return out, nil
}
