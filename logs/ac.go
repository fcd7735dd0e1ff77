package logs

// matcher finds which of a fixed set of literal anchors occur in a line
// with one table lookup per byte (Aho–Corasick), so the cost of reading a
// line does not grow with the number of rules: a gigabyte of serving
// traffic is scanned once, and only lines that contain an anchor are
// handed to the rules' regular expressions.
type matcher struct {
	next [][256]int32 // goto function completed with failure links
	out  [][]int32    // anchors ending at a state (after following failure links)
}

func newMatcher(anchors []string) *matcher {
	m := &matcher{next: make([][256]int32, 1), out: make([][]int32, 1)}
	for i, a := range anchors {
		m.insert(a, int32(i))
	}
	m.link()
	return m
}

func (m *matcher) insert(a string, id int32) {
	s := int32(0)
	for i := 0; i < len(a); i++ {
		c := a[i]
		if m.next[s][c] == 0 {
			m.next = append(m.next, [256]int32{})
			m.out = append(m.out, nil)
			m.next[s][c] = int32(len(m.next) - 1)
		}
		s = m.next[s][c]
	}
	m.out[s] = append(m.out[s], id)
}

// link turns the trie into a full transition table (breadth first).
func (m *matcher) link() {
	fail := make([]int32, len(m.next))
	var queue []int32
	for c := 0; c < 256; c++ {
		if t := m.next[0][c]; t != 0 {
			queue = append(queue, t)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		m.out[s] = append(m.out[s], m.out[fail[s]]...)
		for c := 0; c < 256; c++ {
			t := m.next[s][c]
			if t == 0 {
				m.next[s][c] = m.next[fail[s]][c]
				continue
			}
			fail[t] = m.next[fail[s]][c]
			queue = append(queue, t)
		}
	}
}

// scan calls hit for every anchor occurrence in b (an anchor may be
// reported more than once).
func (m *matcher) scan(b []byte, hit func(id int32)) {
	s := int32(0)
	next := m.next
	for _, c := range b {
		s = next[s][c]
		if out := m.out[s]; len(out) > 0 {
			for _, id := range out {
				hit(id)
			}
		}
	}
}
