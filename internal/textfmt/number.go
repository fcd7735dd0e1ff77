package textfmt

import (
	"math"
	"strconv"
	"strings"
)

// sigDigits is how many significant digits a figure gets: a prediction
// from a model with tens of percent of error earns no more, and the last
// digit still moves when an input does.
const sigDigits = 3

// Seconds formats a duration given in seconds with the unit that suits
// it — µs below a millisecond, ms below a second, s above — and three
// significant digits, trailing zeros dropped (0.0256 → "25.6 ms",
// 0.5 → "500 ms", 769.74 → "770 s", 2039 → "2,040 s").
func Seconds(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN s"
	case math.IsInf(x, 1):
		return "∞ s"
	case math.IsInf(x, -1):
		return "-∞ s"
	case x < 0:
		return "-" + Seconds(-x)
	case x == 0:
		return "0 s"
	}
	r := roundSig(x, sigDigits)
	scale, unit := secondsUnit(r)
	return sig(r*scale, sigDigits) + " " + unit
}

// secondsUnit is the unit a duration of x seconds reads best in, with the
// factor from seconds to it.
func secondsUnit(x float64) (float64, string) {
	x = math.Abs(x)
	switch {
	case x >= 1 || x == 0:
		return 1, "s"
	case x >= 1e-3:
		return 1e3, "ms"
	default:
		return 1e6, "µs"
	}
}

// Count formats a rate or amount: a whole number with thousands grouped
// from 1000 up, three significant digits below (607.4 → "607",
// 49987.2 → "49,987", 2.46 → "2.46").
func Count(x float64) string {
	if !finite(x) {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	if math.Abs(x) >= 1000 {
		return fixed(x, 0)
	}
	return sig(x, sigDigits)
}

// sig prints x with n significant digits in fixed notation, thousands
// grouped, trailing zeros after the point dropped.
func sig(x float64, n int) string {
	if x == 0 {
		return "0"
	}
	r := roundSig(x, n)
	d := max(0, n-1-int(math.Floor(math.Log10(math.Abs(r)))))
	s := fixed(r, d)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// roundSig rounds x to n significant digits.
func roundSig(x float64, n int) float64 {
	if x == 0 || !finite(x) {
		return x
	}
	p := math.Pow(10, float64(n-1)-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*p) / p
}

// fixed prints x with d decimals, the whole part's thousands grouped.
func fixed(x float64, d int) string {
	s := strconv.FormatFloat(x, 'f', d, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, hasFrac := strings.Cut(s, ".")
	if n, err := strconv.ParseInt(whole, 10, 64); err == nil {
		whole = Thousands(n)
	}
	if hasFrac {
		whole += "." + frac
	}
	if neg && strings.Trim(whole, "0.,") != "" {
		return "-" + whole
	}
	return whole
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Rate formats a rate of requests per second: two decimals, as the
// reports print arrival rates, and three significant digits below 0.01,
// where two decimals would print a sustainable rate of long requests as
// "0.00" (0.000831 → "0.000831", 2.5 → "2.50").
func Rate(x float64) string {
	if x != 0 && math.Abs(x) < 0.01 && finite(x) {
		return sig(x, sigDigits)
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}
