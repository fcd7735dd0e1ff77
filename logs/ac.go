package logs

// matcher finds which of a fixed set of literal anchors occur in a line
// with one table lookup per byte (Aho–Corasick), so the cost of reading a
// line does not grow with the number of rules: a gigabyte of serving
// traffic is scanned once, and only lines that contain an anchor are
// handed to the rules' regular expressions. Bytes that occur in no anchor
// share one class, which keeps the table small enough for the cache.
type matcher struct {
	class  [256]uint8
	nclass int
	next   []int32   // state*nclass + class -> state (full transition table)
	out    [][]int32 // anchors ending at a state, failure links followed
	// jump is next with every target premultiplied by nclass, and outAt
	// marks the premultiplied states with anchors, so the scan loop is one
	// add and one load per byte.
	jump  []int32
	outAt []bool
}

func newMatcher(anchors []string) *matcher {
	m := &matcher{}
	for _, a := range anchors {
		for i := 0; i < len(a); i++ {
			if m.class[a[i]] == 0 {
				m.nclass++
				m.class[a[i]] = uint8(m.nclass)
			}
		}
	}
	m.nclass++ // class 0: every byte no anchor uses
	m.grow()
	for i, a := range anchors {
		m.insert(a, int32(i))
	}
	m.link()
	n := int32(m.nclass)
	m.jump = make([]int32, len(m.next))
	for i, t := range m.next {
		m.jump[i] = t * n
	}
	m.outAt = make([]bool, len(m.next))
	for s, o := range m.out {
		m.outAt[int32(s)*n] = len(o) > 0
	}
	return m
}

func (m *matcher) grow() int32 {
	m.next = append(m.next, make([]int32, m.nclass)...)
	m.out = append(m.out, nil)
	return int32(len(m.out) - 1)
}

func (m *matcher) insert(a string, id int32) {
	s := int32(0)
	for i := 0; i < len(a); i++ {
		c := int32(m.class[a[i]])
		if m.next[s*int32(m.nclass)+c] == 0 {
			t := m.grow()
			m.next[s*int32(m.nclass)+c] = t
		}
		s = m.next[s*int32(m.nclass)+c]
	}
	m.out[s] = append(m.out[s], id)
}

// link turns the trie into a full transition table (breadth first).
func (m *matcher) link() {
	n := int32(m.nclass)
	fail := make([]int32, len(m.out))
	var queue []int32
	for c := int32(1); c < n; c++ {
		if t := m.next[c]; t != 0 {
			queue = append(queue, t)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		m.out[s] = append(m.out[s], m.out[fail[s]]...)
		for c := int32(0); c < n; c++ {
			t := m.next[s*n+c]
			if t == 0 {
				m.next[s*n+c] = m.next[fail[s]*n+c]
				continue
			}
			fail[t] = m.next[fail[s]*n+c]
			queue = append(queue, t)
		}
	}
}

// scan calls hit for every anchor occurrence in b (an anchor may be
// reported more than once).
func (m *matcher) scan(b []byte, hit func(id int32)) {
	s := int32(0)
	jump, class, outAt := m.jump, &m.class, m.outAt
	for _, c := range b {
		s = jump[s+int32(class[c])]
		if outAt[s] {
			for _, id := range m.out[s/int32(m.nclass)] {
				hit(id)
			}
		}
	}
}
