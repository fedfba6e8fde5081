package classifier

import "testing"

// BenchmarkLearnBound measures one Learn of a positive (the example that
// triggers SMOTE) at the edges of what Config validation allows, after a
// warm-up that gives both classes and fills the SMOTE memory: the worst
// cost per call that a valid configuration or checkpoint can reach. Its
// units/op metric is learnWork plus the synthetic examples' share, so
// ns/unit calibrates MaxLearnWork.
func BenchmarkLearnBound(b *testing.B) {
	tests := []struct {
		name       string
		cfg        Config
		negs, warm int  // negatives, then positives, before timing
		capped     bool // the synthetic draws reach the cap (counted in units/op)
	}{
		{"SB/nb/d=36/C=1", Config{Algorithm: SB, Features: 36, C: 1}, 64, 64, false},
		{"SB/nb/d=36/C=MaxCost", Config{Algorithm: SB, Features: 36, C: MaxCost}, 64, 64, false},
		{"SBO3/nb/d=36/C=MaxCost", Config{Algorithm: SBO3, Features: 36, C: MaxCost}, 64, 64, true},
		{"SBO1/nb/d=36/ratio=1:4000/C=1/MaxCost", Config{Algorithm: SBO1, Features: 36, C: 1.0 / MaxCost}, 4000, 64, true},
		{"SBO1/nb/d=36/M=MaxMembers/ratio=1:4000/C=1/MaxCost", Config{Algorithm: SBO1, Features: 36, Members: MaxMembers, C: 1.0 / MaxCost}, 4000, 8, true},
		{"SBO1/qda/d=345/ratio=1:400/C=1/MaxCost", Config{Algorithm: SBO1, Learner: LearnerQDA, Features: 345, C: 1.0 / MaxCost}, 400, 4, true},
		{"UOB/qda/d=1024/M=60", Config{Algorithm: UOB, Learner: LearnerQDA, Features: 1024, Members: 60, C: MaxCost}, 4, 4, false},
		{"SB/nb/d=58/Memory=8192", Config{Algorithm: SB, Features: 58, Memory: 8192, C: 1}, 4, 8192, false},
	}
	for _, tt := range tests {
		b.Run(tt.name, func(b *testing.B) {
			m, err := New(tt.cfg)
			if err != nil {
				b.Fatal(err)
			}
			c := m.Config()
			e := m.(*ensemble)
			units := learnWork(c, e.alg)
			if tt.capped {
				units += int64(c.Members) * int64(e.synthCap) * int64(learnerEncodedLen(c.Learner, c.Features)/8)
			}
			s := newTestStream(1, c.Features, 0, 1)
			x := make([]float64, c.Features)
			for i := 0; i < tt.negs; i++ {
				s.next(x)
				m.Learn(x, false)
			}
			s = newTestStream(2, c.Features, 1, 1)
			for i := 0; i < tt.warm; i++ {
				s.next(x)
				m.Learn(x, true)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.next(x)
				if err := m.Learn(x, true); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(units), "units/op")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(units), "ns/unit")
		})
	}
}
