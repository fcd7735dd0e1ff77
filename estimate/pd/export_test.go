package pd

// ExposedS is Overlap's formula for the external tests.
func ExposedS(o Overlap, w float64) float64 { return o.exposedS(w) }
