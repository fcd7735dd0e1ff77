package vllm

import "strings"

// FlagKind is how argparse reads a flag's value.
type FlagKind int

// Flag kinds.
const (
	// Bool is argparse.BooleanOptionalAction: `--x` and `--no-x`, no value.
	Bool FlagKind = iota + 1
	// StoreTrue is action="store_true": `--x` only, no value, no `--no-x`.
	StoreTrue
	// Int takes a decimal integer.
	Int
	// HumanInt takes an integer with optional k/K/m/M/g/G suffix ("25.6k", "2M").
	HumanInt
	// Float takes a decimal number.
	Float
	// String takes one word (possibly limited to Choices).
	String
	// JSON takes a JSON object (or dotted keys, `--flag.key value`).
	JSON
	// StringList takes one or more words (nargs="+").
	StringList
)

var kindNames = map[FlagKind]string{Bool: "bool", StoreTrue: "store_true", Int: "int",
	HumanInt: "human-int", Float: "float", String: "string", JSON: "json", StringList: "list"}

// String names the kind for messages.
func (k FlagKind) String() string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return "invalid"
}

// TakesValue reports whether the flag consumes a value argument.
func (k FlagKind) TakesValue() bool { return k != Bool && k != StoreTrue }

// Flag is one `vllm serve` option as it exists over a span of releases.
type Flag struct {
	// Name is the canonical long name without dashes, e.g. "tensor-parallel-size".
	Name string
	// Aliases are short forms with their dash, e.g. "-tp".
	Aliases []string
	Kind    FlagKind
	// Choices limits the value when non-empty.
	Choices []string
	// Default as vLLM prints it; "" means None / derived at runtime.
	Default string
	// Span is when the entry is valid.
	Span
	// Deprecated names the release from which vLLM warns about the flag.
	Deprecated Version
	// Doc is a one-line meaning, with version notes.
	Doc string
	// Verified is true when Span, kind and default were checked against
	// vLLM's source or versioned docs; Source says where the data came from.
	Verified bool
	Source   string
}

// Long returns "--name".
func (f *Flag) Long() string { return "--" + f.Name }

// HasChoice reports whether v is allowed (always true without Choices).
func (f *Flag) HasChoice(v string) bool {
	if len(f.Choices) == 0 {
		return true
	}
	for _, c := range f.Choices {
		if c == v {
			return true
		}
	}
	return false
}

// Flags lists the flags valid in the release, in table order.
func (r Release) Flags() []*Flag {
	var out []*Flag
	for i := range flagTable {
		if flagTable[i].Contains(r.Version) {
			out = append(out, &flagTable[i])
		}
	}
	return out
}

// Flag looks a flag up as a user may spell it in this release: "--x",
// "x", "--x_y" (underscores), "--x=value", a short alias ("-tp"), a short
// alias with its value attached ("-O3"), or "--no-x" for Bool flags. It
// returns false when the release has no such flag.
func (r Release) Flag(name string) (*Flag, bool) {
	return lookupFlag(name, func(f *Flag) bool { return f.Contains(r.Version) })
}

// CertainFlag is Flag restricted to releases a cited source confirms the
// flag in, for generators: a bundle only carries flags the release is known
// to accept. A flag's table entries split its history where its choices
// changed; a release in the unconfirmed head of a newer entry still
// certainly has the flag when the entry before it is confirmed and ends
// where the newer one starts (the flag did not go away, only its choices may
// have grown). Then the returned flag carries only the choices both entries
// accept, since either set may be the one in force.
func (r Release) CertainFlag(name string) (*Flag, bool) {
	f, ok := r.Flag(name)
	if !ok {
		return nil, false
	}
	if f.Certain(r.Version) {
		return f, true
	}
	hist := FlagHistory(f.Name)
	for i := len(hist) - 1; i > 0; i-- {
		if hist[i] != f {
			continue
		}
		prev := hist[i-1]
		if prev.Removed.Compare(f.Since) != 0 || r.Version.Less(prev.FirstConfirmed()) {
			return nil, false
		}
		merged := *f
		merged.Choices = commonChoices(prev.Choices, f.Choices)
		return &merged, true
	}
	return nil, false
}

// commonChoices is the set both choice lists allow (an empty list allows
// anything).
func commonChoices(a, b []string) []string {
	switch {
	case len(a) == 0:
		return b
	case len(b) == 0:
		return a
	}
	var out []string
	for _, x := range b {
		for _, y := range a {
			if x == y {
				out = append(out, x)
				break
			}
		}
	}
	return out
}

// FlagSpan is the flag's life over all its table entries as one Span:
// Since the earliest release any entry may exist in, Confirmed the first
// release a cited source shows the flag in (zero when that is Since, i.e.
// the first release is pinned), Removed the newest entry's removal (zero
// when current). A message names Since as "added in" only when Confirmed
// is zero; otherwise Since is "not before" and Confirmed "first seen in".
func FlagSpan(name string) (Span, bool) {
	hist := FlagHistory(name)
	if len(hist) == 0 {
		return Span{}, false
	}
	s := Span{Since: hist[0].Since, Removed: hist[len(hist)-1].Removed}
	seen := hist[0].FirstConfirmed()
	for _, f := range hist { // the first entry a source shows in force
		if fc := f.FirstConfirmed(); f.Removed.IsZero() || fc.Less(f.Removed) {
			seen = fc
			break
		}
	}
	if seen.Compare(s.Since) != 0 {
		s.Confirmed = seen
	}
	return s, true
}

// KnownFlagEver finds the flag in any release, preferring the newest entry,
// so callers can say "removed in 0.18.0" or "added in 0.11.1".
func KnownFlagEver(name string) (*Flag, bool) {
	return lookupFlag(name, func(*Flag) bool { return true })
}

// KnownFlagFirst finds the oldest entry a spelling matches, so a caller can
// say when the spelling first existed ("added in 0.8.0") where newer
// entries split the flag's history: a store_true flag that later gained
// --no-x, or a short alias added later (KnownFlagEver would name the
// newest entry's start).
func KnownFlagFirst(name string) (*Flag, bool) {
	long, short := splitFlag(name)
	for i := range flagTable {
		if f := &flagTable[i]; matches(f, long, short) {
			return f, true
		}
	}
	return nil, false
}

// FlagHistory returns every entry for the canonical name, oldest first.
func FlagHistory(name string) []*Flag {
	long, _ := splitFlag(name)
	var out []*Flag
	for i := range flagTable {
		if flagTable[i].Name == long {
			out = append(out, &flagTable[i])
		}
	}
	return out
}

// lookupFlag scans the table newest entry first for a spelling of name.
func lookupFlag(name string, ok func(*Flag) bool) (*Flag, bool) {
	long, short := splitFlag(name)
	if short == "" { // the entries of that long name, newest last (flagIndex)
		idx := indexedFlags().byName[long]
		for j := len(idx) - 1; j >= 0; j-- {
			if f := &flagTable[idx[j]]; ok(f) && matches(f, long, short) {
				return f, true
			}
		}
		return nil, false
	}
	for i := len(flagTable) - 1; i >= 0; i-- {
		f := &flagTable[i]
		if ok(f) && matches(f, long, short) {
			return f, true
		}
	}
	return nil, false
}

// splitFlag normalizes a spelling into a canonical long name and, for a
// single-dash spelling, the short alias itself.
func splitFlag(name string) (long, short string) {
	if i := strings.IndexByte(name, '='); i >= 0 {
		name = name[:i]
	}
	if strings.HasPrefix(name, "-") && !strings.HasPrefix(name, "--") {
		return "", name
	}
	return strings.ReplaceAll(strings.TrimLeft(name, "-"), "_", "-"), ""
}

func matches(f *Flag, long, short string) bool {
	if short != "" {
		for _, a := range f.Aliases {
			// argparse accepts a two-character short option with its value
			// attached: "-O3" is "-O 3".
			if a == short || (len(a) == 2 && f.Kind.TakesValue() && strings.HasPrefix(short, a) && len(short) > 2) {
				return true
			}
		}
		return false
	}
	if f.Name == long {
		return true
	}
	return f.Kind == Bool && long == "no-"+f.Name
}
