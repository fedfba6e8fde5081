package bonn

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"sort"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/ictal/ictal/acquire"
)

// ROC returns the ROC curve of scores (false-positive rate, true-positive
// rate), one point per distinct threshold, from (0, 0) to (1, 1).
func ROC(scores []float64, y []bool) plotter.XYs {
	idx := make([]int, len(scores))
	var p, n float64
	for i := range idx {
		idx[i] = i
		if y[i] {
			p++
		} else {
			n++
		}
	}
	sort.Slice(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	pts := plotter.XYs{{X: 0, Y: 0}}
	var tp, fp float64
	for k, i := range idx {
		if y[i] {
			tp++
		} else {
			fp++
		}
		if k+1 == len(idx) || scores[idx[k+1]] != scores[i] {
			pts = append(pts, plotter.XY{X: fp / max(n, 1), Y: tp / max(p, 1)})
		}
	}
	return pts
}

// Curve is one named ROC for PlotROC.
type Curve struct {
	Name   string
	Scores []float64
	Labels []bool
}

// PlotROC writes the ROC curves of segment scores as a PNG.
func PlotROC(path string, curves []Curve) error {
	p := plot.New()
	p.Title.Text = "Bonn: segment-level ROC (out-of-fold)"
	p.X.Label.Text = "false-positive rate"
	p.Y.Label.Text = "true-positive rate"
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	p.Legend.Top = false
	p.Legend.Left = false
	p.Legend.YOffs = vg.Points(10)
	for i, c := range curves {
		l, err := plotter.NewLine(ROC(c.Scores, c.Labels))
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i)
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(c.Name, l)
	}
	return save(path, 4.5*vg.Inch, 4*vg.Inch, p)
}

// PlotTrace writes window scores over a recording as a PNG, with the
// seizures shaded, the detector's events as bars and the threshold.
func PlotTrace(path, title string, t []time.Duration, score []float64, seizures []acquire.Interval, events [][2]time.Duration, threshold float64) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "time (min)"
	p.Y.Label.Text = "window score"
	p.Y.Min, p.Y.Max = -0.08, 1.05
	for _, s := range seizures {
		if !s.Seizure {
			continue
		}
		a, b := s.Start.Minutes(), s.End.Minutes()
		poly, err := plotter.NewPolygon(plotter.XYs{{X: a, Y: 0}, {X: b, Y: 0}, {X: b, Y: 1.05}, {X: a, Y: 1.05}})
		if err != nil {
			return err
		}
		poly.Color = color.RGBA{R: 255, G: 170, B: 170, A: 255}
		poly.LineStyle.Width = 0
		p.Add(poly)
	}
	xy := make(plotter.XYs, len(t))
	for i := range t {
		xy[i] = plotter.XY{X: t[i].Minutes(), Y: score[i]}
	}
	l, err := plotter.NewLine(xy)
	if err != nil {
		return err
	}
	l.Width = vg.Points(0.5)
	l.Color = color.RGBA{B: 160, A: 255}
	p.Add(l)
	if len(t) > 0 {
		th, err := plotter.NewLine(plotter.XYs{{X: 0, Y: threshold}, {X: t[len(t)-1].Minutes(), Y: threshold}})
		if err != nil {
			return err
		}
		th.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
		th.Color = color.Gray{Y: 90}
		p.Add(th)
	}
	for _, e := range events {
		bar, err := plotter.NewLine(plotter.XYs{{X: e[0].Minutes(), Y: -0.04}, {X: max(e[1], e[0]+10*time.Second).Minutes(), Y: -0.04}})
		if err != nil {
			return err
		}
		bar.Width = vg.Points(4)
		bar.Color = color.RGBA{R: 200, A: 255}
		p.Add(bar)
	}
	p.Legend.Add("score", l)
	return save(path, 9*vg.Inch, 3*vg.Inch, p)
}

// PlotFeedback writes, side by side, the sensitivity and the false alarms
// per 24 h in each part of the replays (Split, summed over recordings)
// without feedback (off) and with the simulated clinician (fb), as a PNG.
func PlotFeedback(path, title string, off, fb [Parts]Part) error {
	runs := []struct {
		name  string
		parts [Parts]Part
	}{{"no feedback", off}, {"simulated clinician", fb}}
	panel := func(name string, v func(Part) float64) (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = name
		p.X.Label.Text = "part of the recording"
		p.NominalX(PartNames[:]...)
		p.X.Min, p.X.Max = -0.5, Parts-0.5
		top := 0.0
		for i, run := range runs {
			vals := make(plotter.Values, Parts)
			for k, q := range run.parts {
				if vals[k] = v(q); math.IsNaN(vals[k]) {
					vals[k] = 0
				}
				top = max(top, vals[k])
			}
			b, err := plotter.NewBarChart(vals, vg.Points(22))
			if err != nil {
				return nil, err
			}
			b.Color = plotutil.Color(i)
			b.LineStyle.Width = 0
			b.Offset = vg.Points(float64(2*i-1) * 11)
			p.Add(b)
			p.Legend.Add(run.name, b)
		}
		p.Y.Min, p.Y.Max = 0, 1.3*max(top, 1e-9) // room for the legend
		p.Legend.Top, p.Legend.Left = true, true
		return p, nil
	}
	sens, err := panel(title+"\nsensitivity", Part.Sensitivity)
	if err != nil {
		return err
	}
	sens.Y.Max = 1.3
	fa, err := panel("\nfalse alarms per 24 h", Part.FalseAlarmsPerDay)
	if err != nil {
		return err
	}
	return save(path, 9*vg.Inch, 3.6*vg.Inch, sens, fa)
}

// save draws plots side by side into a PNG of w × h.
func save(path string, w, h vg.Length, plots ...*plot.Plot) error {
	c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(96))}
	dc := draw.New(c)
	tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: vg.Points(12)}
	for i, cv := range plot.Align([][]*plot.Plot{plots}, tiles, dc)[0] {
		plots[i].Draw(cv)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
