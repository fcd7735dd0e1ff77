package report

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vlaunch/vlaunch/plan"
)

var screenshot = flag.String("screenshot", "", "also save the reference report's screenshot here (the README's docs/check-report.png)")

// chromium finds a headless-capable Chromium. Without one the test skips
// locally and fails in CI (CI=true, set by .ci/run, which installs it).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed (apt-get install chromium); CI needs it to check the HTML report renders")
	}
	t.Skip("chromium not installed: the HTML report's rendering is not checked")
	return ""
}

// runChromium runs one headless Chromium with nothing that reaches the
// network and returns its stdout and stderr.
func runChromium(t *testing.T, bin string, args ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + t.TempDir(),
		"--enable-logging=stderr", "--v=0", "--host-resolver-rules=MAP * ~NOTFOUND"}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, errb.String())
	}
	return out.String(), errb.String()
}

// probeScript measures every chart after layout: its box on the page, the
// box of what it drew, and how many shapes it holds. It is added to a copy
// of the page only (the report itself runs no script).
const probeScript = `<script>
document.querySelectorAll("figure svg").forEach(function (s, i) {
  var r = s.getBoundingClientRect(), b = s.getBBox();
  var n = s.querySelectorAll("rect, line, polyline, circle, text").length;
  s.setAttribute("data-probe", [Math.round(r.width), Math.round(r.height), Math.round(b.width), Math.round(b.height), n].join(" "));
});
window.addEventListener("load", function () {
  var names = performance.getEntriesByType("resource").map(function (e) { return e.name; });
  document.body.setAttribute("data-fetched", names.length ? names.join(" ") : "nothing");
});
</script>`

var (
	probeAttr   = regexp.MustCompile(`data-probe="(\d+) (\d+) (\d+) (\d+) (\d+)"`)
	fetchedAttr = regexp.MustCompile(`data-fetched="([^"]*)"`)
)

// TestHTMLInChromium opens the reference report in headless Chromium:
// every chart is laid out with a non-empty drawing, the page fetches
// nothing (the browser's resource timing is empty; name resolution is off
// anyway), logs nothing to the console, and the screenshot shows the
// charts' colours; the same for the plan page and the P/D report.
func TestHTMLInChromium(t *testing.T) {
	bin := chromium(t)
	r := checkExample(t, "deepseek-v3-32xh20.yaml")
	var check bytes.Buffer
	if err := WriteHTML(&check, r); err != nil {
		t.Fatal(err)
	}
	shot := openInChromium(t, bin, "check", check.Bytes())
	if *screenshot != "" {
		saveSmall(t, shot, *screenshot)
	}
	pr, d := planExample(t, "qwen3-30b-a3b-1xh100", 2)
	best, err := plan.CheckReport(d, pr.Top[0].Settings, 1)
	if err != nil {
		t.Fatal(err)
	}
	var planPage bytes.Buffer
	if err := WritePlanHTML(&planPage, pr, best); err != nil {
		t.Fatal(err)
	}
	openInChromium(t, bin, "plan", planPage.Bytes())
	var pdPage bytes.Buffer // P/D: TTFT by part and utilisation by part
	if err := WriteHTML(&pdPage, checkPDExample(t)); err != nil {
		t.Fatal(err)
	}
	openInChromium(t, bin, "pd", pdPage.Bytes())
}

// openInChromium checks one page in the browser and returns the path of
// its screenshot.
func openInChromium(t *testing.T, bin, name string, page []byte) string {
	t.Helper()
	dir := t.TempDir()
	pagePath, probePath, shot := filepath.Join(dir, name+".html"), filepath.Join(dir, "probe.html"), filepath.Join(dir, name+".png")
	probe := strings.Replace(string(page), "</body>", probeScript+"\n</body>", 1)
	if err := os.WriteFile(pagePath, page, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(probePath, []byte(probe), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, _ := runChromium(t, bin, "--dump-dom", "file://"+probePath)
	if m := fetchedAttr.FindStringSubmatch(dom); m == nil || m[1] != "nothing" {
		t.Errorf("%s: the page fetched resources: %v", name, m)
	}
	charts := probeAttr.FindAllStringSubmatch(dom, -1)
	if want := strings.Count(string(page), "<figure>"); len(charts) != want || want == 0 {
		t.Fatalf("%s: %d charts measured, want %d", name, len(charts), want)
	}
	for i, m := range charts {
		var w, h, bw, bh, n int
		fmt.Sscan(strings.Join(m[1:], " "), &w, &h, &bw, &bh, &n)
		if w < 200 || h < 100 || bw < 100 || bh < 50 || n < 20 {
			t.Errorf("%s: chart %d did not render: box %d×%d, drawing %d×%d, %d shapes", name, i, w, h, bw, bh, n)
		}
	}
	_, logs := runChromium(t, bin, "--screenshot="+shot, "--window-size=1280,2400", "--hide-scrollbars", "file://"+pagePath)
	for _, line := range strings.Split(logs, "\n") {
		if strings.Contains(line, ":CONSOLE") {
			t.Errorf("%s: console message: %s", name, line)
		}
	}
	checkScreenshot(t, shot)
	return shot
}

// checkScreenshot decodes the PNG and looks for the memory chart's KV green
// and the series blue: the charts were painted, not only laid out.
func checkScreenshot(t *testing.T, path string) {
	t.Helper()
	img := decodePNG(t, path)
	want := map[string]color.RGBA{"KV cache green": {0x59, 0xa1, 0x4f, 0xff}, "series blue": {0x1f, 0x77, 0xb4, 0xff}}
	seen := map[string]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			for name, c := range want {
				if near(r>>8, c.R) && near(g>>8, c.G) && near(bl>>8, c.B) {
					seen[name]++
				}
			}
		}
	}
	for name := range want {
		if seen[name] < 50 {
			t.Errorf("screenshot %dx%d: %d pixels of the %s", b.Dx(), b.Dy(), seen[name], name)
		}
	}
}

func near(a uint32, b uint8) bool { return a+6 >= uint32(b) && a <= uint32(b)+6 }

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	return img
}

// readmeHeight is how much of the page the README's screenshot shows: the
// heading, the verdicts and the charts.
const readmeHeight = 1160

// saveSmall keeps the top of the screenshot and re-encodes it with the
// best compression for the README.
func saveSmall(t *testing.T, from, to string) {
	t.Helper()
	full := decodePNG(t, from)
	r := full.Bounds()
	img := full
	if sub, ok := full.(interface {
		SubImage(image.Rectangle) image.Image
	}); ok && r.Dy() > readmeHeight {
		img = sub.SubImage(image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+readmeHeight))
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
