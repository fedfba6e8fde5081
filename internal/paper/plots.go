package paper

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Results holds the records of cv, drift and curve runs, as read by
// ReadResults.
type Results struct {
	CV    []CVRecord
	Drift []DriftRecord
	Curve []CurveRecord
}

// ReadResults reads JSON Lines written by RunCV, RunDrift or RunCurve (in
// any mix), telling them apart by their fields. A line that is none of
// them is an error naming its line number; blank lines are skipped.
func ReadResults(r io.Reader, name string, into *Results) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 { // blank lines (also "\r" or spaces) separate nothing
			continue
		}
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(b, &probe); err != nil {
			return fmt.Errorf("paper: %s:%d: %w", name, line, err)
		}
		var err error
		switch {
		case probe["stream"] != nil:
			var d DriftRecord
			err = json.Unmarshal(b, &d)
			into.Drift = append(into.Drift, d)
		case probe["fraction"] != nil:
			var c CurveRecord
			err = json.Unmarshal(b, &c)
			into.Curve = append(into.Curve, c)
		case probe["folds"] != nil:
			var c CVRecord
			err = json.Unmarshal(b, &c)
			into.CV = append(into.CV, c)
		default:
			err = fmt.Errorf("not a cv, drift or curve record")
		}
		if err != nil {
			return fmt.Errorf("paper: %s:%d: %w", name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("paper: %s: %w", name, err)
	}
	return nil
}

// Plot writes the paper's figures for whatever res holds into dir, each as
// NAME.png and NAME.svg, and returns the names written:
//
//	auc_mean   mean AUC ± std over data sets per algorithm, online beside batch, one panel per learner (Fig. meanDiff)
//	auc_diff   box plots of |AUC_batch − AUC_online| per algorithm, all data sets and learners (Fig. absDiff)
//	roc_<ds>   fold-averaged ROCs per algorithm for the data set satimage (Fig. satROC), if present
//	curve      learning curves, one panel per learner (Fig. AUCTrend)
//	drift      prequential AUC ± std of AC2 and nsAC2 per stream and learner (Table NSresults)
func Plot(res *Results, dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("paper: %w", err)
	}
	var names []string
	// save writes a figure built by one of the functions below, unless
	// building it failed (its error is returned) or it has nothing to show
	// (a nil grid).
	save := func(name string, grid [][]*plot.Plot, err error, w, h vg.Length) error {
		if err != nil || grid == nil {
			return err
		}
		if err := saveGrid(grid, w, h, filepath.Join(dir, name)); err != nil {
			return err
		}
		names = append(names, name)
		return nil
	}
	if len(res.CV) > 0 {
		g, err := aucMeanPlots(res.CV)
		if err := save("auc_mean", g, err, 10*vg.Inch, vg.Length(3.2*float64(len(g)))*vg.Inch); err != nil {
			return names, err
		}
		p, err := diffBoxPlot(res.CV)
		g = nil // no box plot without batch and online pairs
		if p != nil {
			g = [][]*plot.Plot{{p}}
		}
		if err := save("auc_diff", g, err, 10*vg.Inch, 4.5*vg.Inch); err != nil {
			return names, err
		}
		g, err = rocPlots(res.CV, "satimage")
		if err := save("roc_satimage", g, err, 12*vg.Inch, 12*vg.Inch); err != nil {
			return names, err
		}
	}
	if len(res.Curve) > 0 {
		g, err := curvePlots(res.Curve)
		if err := save("curve", g, err, 15*vg.Inch, 5*vg.Inch); err != nil {
			return names, err
		}
	}
	if len(res.Drift) > 0 {
		g, err := driftPlots(res.Drift)
		if err := save("drift", g, err, 12*vg.Inch, 4.5*vg.Inch); err != nil {
			return names, err
		}
	}
	return names, nil
}

// saveGrid draws a grid of plots on one page and writes base.png (at 96
// dpi) and base.svg.
func saveGrid(grid [][]*plot.Plot, w, h vg.Length, base string) error {
	tiles := draw.Tiles{Rows: len(grid), Cols: len(grid[0]), PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	drawOn := func(c vg.CanvasSizer) {
		dc := draw.New(c)
		dc.SetColor(color.White)
		dc.Fill(dc.Rectangle.Path())
		canvases := plot.Align(grid, tiles, dc)
		for i := range grid {
			for j, p := range grid[i] {
				if p != nil {
					p.Draw(canvases[i][j])
				}
			}
		}
	}
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(96))
	drawOn(img)
	if err := writeTo(base+".png", vgimg.PngCanvas{Canvas: img}); err != nil {
		return err
	}
	svg := vgsvg.New(w, h)
	drawOn(svg)
	return writeTo(base+".svg", svg)
}

func writeTo(path string, w io.WriterTo) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("paper: %w", err)
	}
	if _, err := w.WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("paper: writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("paper: %w", err)
	}
	return nil
}

// ordered returns the distinct values of f over xs in first-seen order.
func ordered[T any](xs []T, f func(T) string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if k := f(x); !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// errPoints is a set of points with symmetric vertical error bars.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// addErrSeries adds points with error bars and a legend entry.
func addErrSeries(p *plot.Plot, pts errPoints, c color.Color, shape draw.GlyphDrawer, label string) error {
	s, err := plotter.NewScatter(pts.XYs)
	if err != nil {
		return err
	}
	s.GlyphStyle.Color, s.GlyphStyle.Shape, s.GlyphStyle.Radius = c, shape, vg.Points(3)
	eb, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return err
	}
	eb.LineStyle.Color = c
	p.Add(eb, s)
	p.Legend.Add(label, s)
	return nil
}

// aucPlot returns an empty plot titled title of AUC over the named
// categories, legend on top: aucMeanPlots' and driftPlots' frame, for
// addErrSeries to fill.
func aucPlot(title string, names []string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = "AUC"
	p.NominalX(names...)
	p.Legend.Top = true
	return p
}

// aucMeanPlots is Fig. meanDiff: per learner, each algorithm's mean AUC
// over data sets with its standard deviation, online beside batch.
func aucMeanPlots(cv []CVRecord) ([][]*plot.Plot, error) {
	algs := ordered(cv, func(r CVRecord) string { return r.Algorithm })
	var grid [][]*plot.Plot
	for _, l := range ordered(cv, func(r CVRecord) string { return r.Learner }) {
		p := aucPlot("Mean AUC over data sets (± std), learner "+l, algs)
		for mi, m := range []string{ModeOnline, ModeBatch} {
			var pts errPoints
			for ai, a := range algs {
				var v []float64
				for _, r := range cv {
					if r.Learner == l && r.Algorithm == a && r.Mode == m {
						v = append(v, r.AUCMean)
					}
				}
				if len(v) == 0 {
					continue
				}
				mean, sd := meanStd(v)
				pts.XYs = append(pts.XYs, plotter.XY{X: float64(ai) + 0.15*float64(2*mi-1), Y: mean})
				pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{sd, sd})
			}
			if len(pts.XYs) == 0 {
				continue
			}
			if err := addErrSeries(p, pts, plotutil.Color(mi), plotutil.Shape(mi), m); err != nil {
				return nil, err
			}
		}
		p.X.Min, p.X.Max = -0.5, float64(len(algs))+0.8 // room for the legend
		grid = append(grid, []*plot.Plot{p})
	}
	return grid, nil
}

// AbsDiffs returns, per algorithm, |AUC_batch − AUC_online| over every
// (data set, learner) that has both modes, and the algorithms in
// first-seen order.
func AbsDiffs(cv []CVRecord) (map[string][]float64, []string) {
	type k struct{ d, a, l string }
	on, ba := map[k]float64{}, map[k]float64{}
	for _, r := range cv {
		if r.Mode == ModeOnline {
			on[k{r.Dataset, r.Algorithm, r.Learner}] = r.AUCMean
		} else {
			ba[k{r.Dataset, r.Algorithm, r.Learner}] = r.AUCMean
		}
	}
	out := map[string][]float64{}
	for _, r := range cv {
		key := k{r.Dataset, r.Algorithm, r.Learner}
		if r.Mode != ModeOnline {
			continue
		}
		if b, ok := ba[key]; ok {
			out[r.Algorithm] = append(out[r.Algorithm], math.Abs(b-on[key]))
		}
	}
	var algs []string
	for _, a := range ordered(cv, func(r CVRecord) string { return r.Algorithm }) {
		if len(out[a]) > 0 {
			algs = append(algs, a)
		}
	}
	return out, algs
}

// diffBoxPlot is Fig. absDiff; nil when no record has both modes.
func diffBoxPlot(cv []CVRecord) (*plot.Plot, error) {
	d, algs := AbsDiffs(cv)
	if len(algs) == 0 {
		return nil, nil
	}
	p := plot.New()
	p.Title.Text = "|AUC batch − AUC online| over data sets and learners"
	p.Y.Label.Text = "absolute AUC difference"
	for i, a := range algs {
		b, err := plotter.NewBoxPlot(vg.Points(20), float64(i), plotter.Values(d[a]))
		if err != nil {
			return nil, err
		}
		p.Add(b)
	}
	p.NominalX(algs...)
	return p, nil
}

// rocPlots is Fig. satROC: for the named data set, one panel per
// algorithm with the fold-averaged ROC of each learner, online solid and
// batch dashed. Nil if the data set is absent.
func rocPlots(cv []CVRecord, dataset string) ([][]*plot.Plot, error) {
	var recs []CVRecord
	for _, r := range cv {
		if r.Dataset == dataset && len(r.ROC) > 0 {
			recs = append(recs, r)
		}
	}
	if len(recs) == 0 {
		return nil, nil
	}
	algs := ordered(recs, func(r CVRecord) string { return r.Algorithm })
	learners := ordered(recs, func(r CVRecord) string { return r.Learner })
	cols := 3
	var grid [][]*plot.Plot
	for i, a := range algs {
		p := plot.New()
		p.Title.Text = dataset + " " + a
		p.X.Label.Text, p.Y.Label.Text = "FPR", "TPR"
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
		p.Legend.Top, p.Legend.Left = false, false
		for _, r := range recs {
			if r.Algorithm != a {
				continue
			}
			pts := make([]Point, len(r.ROC))
			for j, q := range r.ROC {
				pts[j] = Point{q[0], q[1]}
			}
			xy := plotter.XYs{{X: 0, Y: 0}}
			sort.SliceStable(pts, func(i, j int) bool {
				return pts[i].FPR < pts[j].FPR || pts[i].FPR == pts[j].FPR && pts[i].TPR < pts[j].TPR
			})
			for _, q := range pts {
				xy = append(xy, plotter.XY{X: q.FPR, Y: q.TPR})
			}
			xy = append(xy, plotter.XY{X: 1, Y: 1})
			line, sc, err := plotter.NewLinePoints(xy)
			if err != nil {
				return nil, err
			}
			c := plotutil.Color(slices.Index(learners, r.Learner))
			line.LineStyle.Color, sc.GlyphStyle.Color = c, c
			sc.GlyphStyle.Radius = vg.Points(1.5)
			if r.Mode == ModeBatch {
				line.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			}
			p.Add(line, sc)
			p.Legend.Add(fmt.Sprintf("%s %s %.3f", r.Learner, r.Mode, r.AUCMean), line)
		}
		if i%cols == 0 {
			grid = append(grid, make([]*plot.Plot, cols))
		}
		grid[len(grid)-1][i%cols] = p
	}
	return grid, nil
}

// curvePlots is Fig. AUCTrend: one panel per learner, AUC ± std against
// the training fraction for each algorithm, online solid and batch dashed.
func curvePlots(cs []CurveRecord) ([][]*plot.Plot, error) {
	algs := ordered(cs, func(r CurveRecord) string { return r.Algorithm })
	var row []*plot.Plot
	for _, l := range ordered(cs, func(r CurveRecord) string { return r.Learner }) {
		p := plot.New()
		p.Title.Text = cs[0].Dataset + " learning curves, learner " + l
		p.X.Label.Text, p.Y.Label.Text = "training fraction", "AUC"
		p.Legend.Top, p.Legend.Left = false, false
		for ai, a := range algs {
			for _, m := range []string{ModeOnline, ModeBatch} {
				var pts errPoints
				for _, r := range cs {
					if r.Learner == l && r.Algorithm == a && r.Mode == m {
						pts.XYs = append(pts.XYs, plotter.XY{X: r.Fraction, Y: r.AUCMean})
						pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{r.AUCStd, r.AUCStd})
					}
				}
				if len(pts.XYs) == 0 {
					continue
				}
				line, sc, err := plotter.NewLinePoints(pts.XYs)
				if err != nil {
					return nil, err
				}
				eb, err := plotter.NewYErrorBars(pts)
				if err != nil {
					return nil, err
				}
				c := plotutil.Color(ai)
				line.LineStyle.Color, sc.GlyphStyle.Color, eb.LineStyle.Color = c, c, c
				if m == ModeBatch {
					line.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
					sc.GlyphStyle.Shape = draw.BoxGlyph{}
				}
				p.Add(line, sc, eb)
				p.Legend.Add(map[string]string{ModeOnline: "o", ModeBatch: "b"}[m]+a, line, sc)
			}
		}
		row = append(row, p)
	}
	return [][]*plot.Plot{row}, nil
}

// driftPlots is Table NSresults as a figure: per stream, the prequential
// AUC ± std of AC2 and nsAC2 for each learner.
func driftPlots(ds []DriftRecord) ([][]*plot.Plot, error) {
	learners := ordered(ds, func(r DriftRecord) string { return r.Learner })
	var row []*plot.Plot
	for _, s := range ordered(ds, func(r DriftRecord) string { return r.Stream }) {
		p := aucPlot("Prequential AUC, "+s, learners)
		for vi, v := range []string{"plain", "ns"} {
			var pts errPoints
			for li, l := range learners {
				for _, r := range ds {
					if r.Stream == s && r.Learner == l && r.Variant == v {
						pts.XYs = append(pts.XYs, plotter.XY{X: float64(li) + 0.12*float64(2*vi-1), Y: r.AUCMean})
						pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{r.AUCStd, r.AUCStd})
					}
				}
			}
			if len(pts.XYs) == 0 {
				continue
			}
			label := map[string]string{"plain": "AC2", "ns": "nsAC2"}[v]
			if err := addErrSeries(p, pts, plotutil.Color(vi), plotutil.Shape(vi), label); err != nil {
				return nil, err
			}
		}
		p.X.Min, p.X.Max = -0.5, float64(len(learners))+0.3 // room for the legend
		row = append(row, p)
	}
	return [][]*plot.Plot{row}, nil
}
