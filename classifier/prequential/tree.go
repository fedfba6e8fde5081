package prequential

// tree is a treap of the distinct scores seen, each node counting the
// examples of each class at its score and the subtree's totals, so that
// the examples of a class below a score are counted in O(log n). Node 0
// is the empty tree; nodes are never removed, and int32 indices allow
// 2³¹−1 distinct scores (over 100 GB of nodes). Priorities come from a
// fixed splitmix64 sequence, so the shape, and with it the work, does not
// depend on the order of the scores.
type tree struct {
	nodes []node
	root  int32
	state uint64
}

type node struct {
	key   float64
	l, r  int32
	pri   uint64
	cnt   [2]int // examples at key, by class (0 negative, 1 positive)
	total [2]int // examples in the subtree, by class
}

func (t *tree) init() {
	t.nodes = make([]node, 1, 64)
	t.state = 0x9e3779b97f4a7c15
}

func (t *tree) reserve(n int) {
	if n+1 > cap(t.nodes) {
		nodes := make([]node, len(t.nodes), n+1)
		copy(nodes, t.nodes)
		t.nodes = nodes
	}
}

// next returns the next priority of the splitmix64 sequence.
func (t *tree) next() uint64 {
	t.state += 0x9e3779b97f4a7c15
	z := t.state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// rank returns how many examples of the class positive scored below s and
// how many scored exactly s.
func (t *tree) rank(s float64, positive bool) (below, equal int) {
	c := b2i(positive)
	for i := t.root; i != 0; {
		n := &t.nodes[i]
		switch {
		case s < n.key:
			i = n.l
		case s > n.key:
			below += t.nodes[n.l].total[c] + n.cnt[c]
			i = n.r
		default:
			return below + t.nodes[n.l].total[c], n.cnt[c]
		}
	}
	return below, 0
}

// insert counts k examples of score s and class positive, and reports
// whether s is new.
func (t *tree) insert(s float64, positive bool, k int) (added bool) {
	before := len(t.nodes)
	t.root = t.insertAt(t.root, s, b2i(positive), k)
	return len(t.nodes) > before
}

func (t *tree) insertAt(i int32, s float64, c, k int) int32 {
	if i == 0 {
		n := node{key: s, pri: t.next()}
		n.cnt[c], n.total[c] = k, k
		t.nodes = append(t.nodes, n)
		return int32(len(t.nodes) - 1)
	}
	// t.nodes may move during the recursive call: index, do not hold pointers.
	switch key := t.nodes[i].key; {
	case s < key:
		l := t.insertAt(t.nodes[i].l, s, c, k)
		t.nodes[i].l = l
		t.nodes[i].total[c] += k
		if t.nodes[l].pri > t.nodes[i].pri {
			return t.rotateRight(i)
		}
	case s > key:
		r := t.insertAt(t.nodes[i].r, s, c, k)
		t.nodes[i].r = r
		t.nodes[i].total[c] += k
		if t.nodes[r].pri > t.nodes[i].pri {
			return t.rotateLeft(i)
		}
	default:
		t.nodes[i].cnt[c] += k
		t.nodes[i].total[c] += k
	}
	return i
}

// rotateRight lifts i's left child above i and returns it.
func (t *tree) rotateRight(i int32) int32 {
	l := t.nodes[i].l
	t.nodes[i].l = t.nodes[l].r
	t.nodes[l].r = i
	t.pull(i)
	t.pull(l)
	return l
}

// rotateLeft lifts i's right child above i and returns it.
func (t *tree) rotateLeft(i int32) int32 {
	r := t.nodes[i].r
	t.nodes[i].r = t.nodes[r].l
	t.nodes[r].l = i
	t.pull(i)
	t.pull(r)
	return r
}

// pull recomputes i's subtree totals from its children.
func (t *tree) pull(i int32) {
	n := &t.nodes[i]
	for c := range n.total {
		n.total[c] = n.cnt[c] + t.nodes[n.l].total[c] + t.nodes[n.r].total[c]
	}
}
