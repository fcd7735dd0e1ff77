package textfmt

import "testing"

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 70272: "70,272", -1234567: "-1,234,567"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestQuantity(t *testing.T) {
	if got := Quantity(1.234, "s"); got != "1.23 s" {
		t.Errorf("seconds: %q", got)
	}
	if got := Quantity(50000.4, "tokens/s"); got != "50000 tokens/s" {
		t.Errorf("throughput: %q", got)
	}
	if OnOff(true) != "on" || OnOff(false) != "off" {
		t.Error("OnOff")
	}
}
