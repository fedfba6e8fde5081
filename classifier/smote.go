package classifier

// smoteMemory is the positive memory X⁺ of online SMOTE (Alg. onlinesmote):
// a ring buffer of the latest stored positives (capacity Config.Memory; the
// oldest is overwritten when it is full) with the k nearest neighbours of
// the latest one, found once when it is stored and shared by every member.
//
// Neighbours are the stored positives nearest in Euclidean distance to the
// latest, excluding the latest itself and every stored copy of it (distance
// 0): interpolating towards a copy would produce the point itself, not a
// synthetic example. Ties keep the earlier slot.
type smoteMemory struct {
	d, capacity, k int
	data           []float64 // capacity × d
	n              int       // slots filled (0..capacity); slots [0, n) are valid
	next           int       // slot the next positive goes to
	last           int       // slot of the latest positive, -1 when empty
	nbr            []int     // neighbour slots, nearest first; nn valid
	dist           []float64 // their squared distances
	nn             int
}

func newSMOTEMemory(d, capacity, k int) *smoteMemory {
	if k > capacity-1 {
		k = capacity - 1
	}
	return &smoteMemory{
		d: d, capacity: capacity, k: k,
		data: make([]float64, capacity*d),
		last: -1,
		nbr:  make([]int, k),
		dist: make([]float64, k),
	}
}

func (s *smoteMemory) slot(i int) []float64 { return s.data[i*s.d : (i+1)*s.d] }

// add stores x as the latest positive and finds its neighbours.
func (s *smoteMemory) add(x []float64) {
	copy(s.slot(s.next), x)
	s.last = s.next
	s.next = (s.next + 1) % s.capacity
	if s.n < s.capacity {
		s.n++
	}
	s.findNeighbours()
}

// findNeighbours keeps the k nearest distinct stored positives of the
// latest one, by insertion into a sorted list: O(n·(d+k)).
func (s *smoteMemory) findNeighbours() {
	s.nn = 0
	x := s.slot(s.last)
	for i := 0; i < s.n; i++ {
		if i == s.last {
			continue
		}
		y := s.slot(i)
		var d2 float64
		for j, v := range x {
			t := y[j] - v
			d2 += float64(t * t) // never fused: same neighbours on every architecture
		}
		if d2 == 0 {
			continue // a copy of the point itself
		}
		if s.nn == s.k && d2 >= s.dist[s.k-1] {
			continue
		}
		p := s.nn
		if p == s.k {
			p--
		} else {
			s.nn++
		}
		for p > 0 && s.dist[p-1] > d2 {
			s.dist[p], s.nbr[p] = s.dist[p-1], s.nbr[p-1]
			p--
		}
		s.dist[p], s.nbr[p] = d2, i
	}
}

// synthesize writes into dst a synthetic positive x + γ(x' − x), with x the
// latest positive, x' one of its neighbours chosen uniformly and γ uniform
// in [0, 1), drawn from rng. It reports false, leaving dst alone, when x
// has no distinct neighbour yet.
func (s *smoteMemory) synthesize(dst []float64, rng *stream) bool {
	if s.nn == 0 {
		return false
	}
	x := s.slot(s.last)
	y := s.slot(s.nbr[rng.intn(s.nn)])
	g := rng.float64()
	for j, v := range x {
		dst[j] = v + float64(g*(y[j]-v))
	}
	return true
}

// encodedLen is the size of appendBinary's output.
func (s *smoteMemory) encodedLen() int { return 8*4 + 8*s.n*s.d }

// appendBinary appends the memory: counts and the stored positives. The
// neighbour list is recomputed on decode (it is a function of the data).
func (s *smoteMemory) appendBinary(b []byte) []byte {
	b = appendU64(b, uint64(s.n))
	b = appendU64(b, uint64(s.next))
	b = appendU64(b, uint64(int64(s.last)))
	b = appendU64(b, uint64(s.nn))
	return appendF64s(b, s.data[:s.n*s.d])
}

func (s *smoteMemory) decode(d *decoder) {
	n := d.u64("smote memory: count")
	next := d.u64("smote memory: next slot")
	last := int64(d.u64("smote memory: latest slot"))
	nn := d.u64("smote memory: neighbours")
	if d.err != nil {
		return
	}
	switch {
	case n > uint64(s.capacity):
		d.fail("smote memory: count exceeds capacity")
	case n < uint64(s.capacity) && next != n, n == uint64(s.capacity) && next >= n:
		d.fail("smote memory: next slot inconsistent with count")
	case n == 0 && last != -1, n > 0 && (last < 0 || uint64(last) >= n):
		d.fail("smote memory: latest slot out of range")
	}
	if d.err != nil {
		return
	}
	s.n, s.next, s.last = int(n), int(next), int(last)
	d.f64s(s.data[:s.n*s.d], "smote memory: positive")
	if d.err != nil {
		return
	}
	s.nn = 0
	if s.last >= 0 {
		s.findNeighbours()
	}
	if uint64(s.nn) != nn {
		d.fail("smote memory: neighbour count does not match the stored positives")
	}
}
