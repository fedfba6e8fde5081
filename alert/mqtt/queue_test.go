package mqtt

import (
	"strings"
	"testing"
	"time"

	"github.com/ictal/ictal/alert"
)

func TestQueueDropPolicy(t *testing.T) {
	type op struct {
		k kind
		p string
	}
	tests := []struct {
		name        string
		capacity    int
		ops         []op
		want        []string // payloads in pop order
		scores, sts uint64   // drops
	}{
		{"room for everything", 4, []op{{kindScore, "s1"}, {kindStatus, "st1"}, {kindAlert, "a1"}},
			[]string{"a1", "s1", "st1"}, 0, 0},
		{"a new score is dropped when full", 2, []op{{kindScore, "s1"}, {kindStatus, "st1"}, {kindScore, "s2"}},
			[]string{"s1", "st1"}, 1, 0},
		{"a status evicts the oldest score", 3, []op{{kindScore, "s1"}, {kindStatus, "st1"}, {kindScore, "s2"}, {kindStatus, "st2"}},
			[]string{"st1", "s2", "st2"}, 1, 0},
		{"with no score left the oldest status goes", 2, []op{{kindStatus, "st1"}, {kindStatus, "st2"}, {kindStatus, "st3"}},
			[]string{"st2", "st3"}, 0, 1},
		{"alerts and ends are never dropped and go first", 1, []op{{kindStatus, "st1"}, {kindAlert, "a1"}, {kindScore, "s1"}, {kindEnd, "e1"}, {kindAlert, "a2"}},
			[]string{"a1", "e1", "a2", "st1"}, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := newQueue(tt.capacity)
			for _, o := range tt.ops {
				if o.k == kindAlert || o.k == kindEnd {
					q.pushUrgent(o.k, []byte(o.p))
				} else {
					q.push(o.k, []byte(o.p))
				}
			}
			var got []string
			for {
				_, p, ok := q.pop()
				if !ok {
					break
				}
				got = append(got, string(p))
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("popped %v, want %v", got, tt.want)
			}
			if s, st := q.drops(); s != tt.scores || st != tt.sts {
				t.Errorf("dropped %d scores and %d status, want %d and %d", s, st, tt.scores, tt.sts)
			}
		})
	}
}

func TestQueueWrapsAround(t *testing.T) {
	q := newQueue(3)
	for i := 0; i < 10; i++ {
		q.push(kindScore, []byte{byte('0' + i)})
		if i%2 == 1 {
			if _, p, _ := q.pop(); len(p) != 1 {
				t.Fatalf("pop %q", p)
			}
		}
	}
	var got string
	for _, p, ok := q.pop(); ok; _, p, ok = q.pop() {
		got += string(p)
	}
	// pushes 0..9 with a pop after every odd one: 5, 7 and 9 find it full
	if s, _ := q.drops(); got != "68" || s != 3 {
		t.Errorf("left %q after %d drops, want \"68\" after 3", got, s)
	}
}

// TestSinkAllocs: once the queue's slots have been used, Score and
// Status allocate nothing, full queue or not.
func TestSinkAllocs(t *testing.T) {
	m := &Publisher{cfg: Config{Scores: true}, q: newQueue(8), wake: make(chan struct{}, 1), buf: make([]byte, 0, 512)}
	now := time.Now()
	for i := 0; i < 16; i++ { // warm every slot
		m.Score(alert.Score{T: now, Score: 0.5})
		m.Status(alert.Status{State: alert.StateElectrodeOff, Since: now})
	}
	if a := testing.AllocsPerRun(1000, func() {
		m.Score(alert.Score{T: now, Score: 0.123456, Usable: true})
		m.Status(alert.Status{State: alert.StateSignalLost, Since: now})
	}); a != 0 {
		t.Errorf("Score+Status allocate %v times per call", a)
	}
}

func BenchmarkSinkScore(b *testing.B) {
	m := &Publisher{cfg: Config{Scores: true}, q: newQueue(DefaultQueueSize), wake: make(chan struct{}, 1), buf: make([]byte, 0, 512)}
	s := alert.Score{T: time.Now(), Score: 0.42, Usable: true}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		m.Score(s)
		if i%64 == 63 { // a consumer keeps up (without the copy pop makes)
			m.q.mu.Lock()
			m.q.head, m.q.n = 0, 0
			m.q.mu.Unlock()
		}
	}
}
