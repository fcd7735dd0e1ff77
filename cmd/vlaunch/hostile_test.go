package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vlaunch/vlaunch/internal/specfixture"
)

// Bounds every hostile case must stay within (#15). The binary runs with
// GOMEMLIMIT at the memory bound and, as a hard backstop, a 4 GiB address
// space; peak RSS and CPU time come from the child's rusage, which do not
// depend on how busy the machine is. The wall-clock limit only catches a
// hang.
const (
	hostileMaxRSS  = 500 << 20 // bytes
	hostileMaxCPU  = 10 * time.Second
	hostileMaxWall = 120 * time.Second
)

// hostileCase is one command on one hostile input: it must end within the
// bounds, with the exit code wanted and a diagnostic matching want (on
// stdout or stderr), and without a Go panic or runtime error.
type hostileCase struct {
	name string
	args []string // "$D/" is the case directory
	exit int
	want string
}

// hostileSearchCPU bounds the 10,000-node layout searches. The time a user
// waits is BenchmarkPlan10000Nodes' (7.7 s wall on an idle 2-core machine,
// the issue asks under 10 s); CPU time adds the garbage collector's work on
// the second core (9.5–11.5 s measured), and generate also writes 10,000
// node scripts. The cap catches a return to the minutes these took before.
const hostileSearchCPU = 20 * time.Second

// searchCases are the cases that search the layouts of a 10,000-node
// cluster and write or verify whole bundles (plan, and generate with
// parallelism: auto). check's search prunes by bounds and stays under the
// shared cap (about 1 s of CPU).
var searchCases = map[string]bool{"plan 10,000 nodes": true, "generate 10,000 nodes": true}

// TestHostileInputs runs the built binary (the test binary as vlaunch,
// see TestMain) on hostile and huge inputs for every command that reads
// one: non-regular files, files past every size cap, YAML built to cost
// memory, absurd and huge-but-valid workloads, secrets, and the fuzz
// corpora's inputs.
func TestHostileInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary on inputs of up to 120 MB")
	}
	bin, err := exec.LookPath("vlaunch")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	hostileFiles(t, dir)
	for _, c := range hostileCases() {
		t.Run(c.name, func(t *testing.T) { runHostile(t, bin, dir, c) })
	}
	for i, seed := range fuzzSeeds(t) {
		p := filepath.Join(dir, fmt.Sprintf("seed%d.yaml", i))
		if err := os.WriteFile(p, seed, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{"validate", "check"} {
			c := hostileCase{name: fmt.Sprintf("fuzz seed %d %s", i, cmd), args: []string{cmd, p}, exit: -1, want: `\S`}
			t.Run(c.name, func(t *testing.T) { runHostile(t, bin, dir, c) })
		}
	}
}

func hostileCases() []hostileCase {
	notRegular := `not a regular file`
	tooBig := `over the [0-9]+ MiB limit`
	return []hostileCase{
		// Files that are not files, or too much of one.
		{"validate FIFO", []string{"validate", "$D/fifo.yaml"}, 2, notRegular},
		{"check FIFO", []string{"check", "$D/fifo.yaml"}, 2, notRegular},
		{"generate FIFO", []string{"generate", "$D/fifo.yaml", "--out-dir", "$D/out-fifo"}, 2, notRegular},
		{"preflight FIFO", []string{"preflight", "$D/fifo.yaml", "--node", "n0"}, 2, notRegular},
		{"validate /dev/zero", []string{"validate", "/dev/zero"}, 2, notRegular},
		{"validate directory", []string{"validate", "$D"}, 2, notRegular},
		{"validate 120 MB", []string{"validate", "$D/big.yaml"}, 2, tooBig},
		{"check 120 MB", []string{"check", "$D/big.yaml"}, 2, tooBig},
		{"lint /dev/zero", []string{"lint", "/dev/zero"}, 2, notRegular},
		{"lint FIFO", []string{"lint", "$D/fifo.yaml"}, 2, notRegular},
		{"lint 120 MB", []string{"lint", "$D/big.yaml"}, 2, tooBig},
		{"logs /dev/zero", []string{"logs", "/dev/zero"}, 2, notRegular},
		{"logs FIFO", []string{"logs", "$D/fifo.yaml"}, 2, notRegular},
		{"logs gzip bomb", []string{"logs", "$D/bomb.log.gz"}, -1, `\S`},
		{"calibrate /dev/zero", []string{"calibrate", "/dev/zero", "--spec", "$D/ref.yaml"}, 2, notRegular},
		{"calibrate FIFO result", []string{"calibrate", "$D/fifo.yaml", "--spec", "$D/ref.yaml"}, 2, notRegular},
		{"model config FIFO", []string{"validate", "$D/hfconfig-fifo.yaml"}, 1, notRegular},
		{"templates FIFO", []string{"generate", "$D/ref.yaml", "--out-dir", "$D/out-tpl", "--templates", "$D/tpl-fifo"}, 2, notRegular},
		{"templates unknown", []string{"generate", "$D/ref.yaml", "--out-dir", "$D/out-tpl2", "--templates", "$D/tpl-typo"}, 2, `not a template vlaunch renders`},
		// YAML built to cost memory or time.
		{"binary spec", []string{"validate", "$D/binary.yaml"}, 2, `binary`},
		{"empty spec", []string{"validate", "$D/empty.yaml"}, 2, `empty`},
		{"dense flow list", []string{"validate", "$D/dense.yaml"}, 2, `YAML values and keys, more than`},
		{"alias bomb", []string{"check", "$D/aliasbomb.yaml"}, 2, `too large or too deeply nested`},
		{"deep nesting", []string{"validate", "$D/deep.yaml"}, 2, `SPEC001`},
		{"duplicate keys", []string{"validate", "$D/dupkeys.yaml"}, 2, `written twice`},
		{"lint Latin-1", []string{"lint", "$D/latin1.sh"}, -1, `\S`},
		{"lint deep substitution", []string{"lint", "$D/deepsubst.sh"}, -1, `\S`},
		// Workloads past the limits, and huge ones within them.
		{"validate concurrency 1e9", []string{"validate", "$D/conc1e9.yaml"}, 1, `above the limit of 1,000,000`},
		{"check concurrency 1e9", []string{"check", "$D/conc1e9.yaml"}, 1, `above the limit of 1,000,000`},
		{"check concurrency 1e6", []string{"check", "$D/conc1e6.yaml"}, 1, `closed loop, 1000000 sessions`},
		{"check arrivals 1000/s", []string{"check", "$D/rate1000.yaml"}, 1, `overloaded: the deployment sustains about`},
		{"check arrivals 1e6/s", []string{"check", "$D/rate1e6.yaml"}, 1, `overloaded`},
		{"check 16 M-token prompt in 1-token chunks", []string{"check", "$D/longprompt.yaml"}, 1, `EST102`},
		{"check burst of 20,000 at 100/s", []string{"check", "$D/burst20000.yaml"}, 1, `20000 requests, Poisson arrivals at 100.00/s`},
		{"check burst at 100/s, 16 TTFT targets", []string{"check", "$D/burst16ttft.yaml"}, 1, `3529 requests, Poisson arrivals at 100.00/s, 10000 in`},
		{"validate burst replays over the limit", []string{"validate", "$D/burstover.yaml"}, 1, `simulated whole at each of the 4 input lengths`},
		{"check 16 Mi output tokens", []string{"check", "$D/longout.yaml"}, -1, `\S`},
		// Runs that complete almost nothing in their work share end at its
		// ceiling, and their verdicts say so (2.3 s and 20 s before).
		{"check 1M-token outputs, open loop", []string{"check", "$D/million-out-rate.yaml"}, 1, `cut short: the run reached its work ceiling`},
		// Exit 0: its 1,000 sessions not fitting at once is a warning (EST103:
		// vLLM queues them), and both verdicts are uncertain (the run was cut
		// short), which the exit code counts only with --fail-on uncertain.
		{"check burst of 1M-token outputs", []string{"check", "$D/million-out-burst.yaml"}, 0, `reached its work ceiling after measuring`},
		{"check auto, 100 nodes", []string{"check", "$D/auto100.yaml"}, 1, `parallelism: auto chose`},
		{"check auto, 10,000 nodes", []string{"check", "$D/auto10000.yaml"}, 1, `parallelism: auto chose`},
		{"check DP 10,000", []string{"check", "$D/dp10000.yaml"}, 1, `TP 8 · PP 1 · DP 10000 · EP off`},
		{"check DP 10,000, 16 TTFT targets", []string{"check", "$D/dp10000ttft.yaml"}, 1, `TTFT p99 at 10000 input tokens`},
		{"plan 10,000 nodes", []string{"plan", "$D/auto10000.yaml", "--top", "3"}, -1, `#1 \[colocated\] TP`},
		{"validate 10,001 nodes", []string{"validate", "$D/nodes10001.yaml"}, 1, `more than the limit of 10,000`},
		{"generate 10,000 nodes", []string{"generate", "$D/auto10000.yaml", "--out-dir", "$D/out-10000"}, -1, `\S`},
		// Secrets.
		{"validate secret", []string{"validate", "$D/secret.yaml"}, 1, `SPEC121`},
		{"generate secret", []string{"generate", "$D/secret.yaml", "--out-dir", "$D/out-secret"}, 1, `SPEC121`},
		{"lint secret", []string{"lint", "$D/secret.sh"}, 1, `VL129`},
	}
}

// hostilePlanRSS bounds plan on 10,000 nodes: #15's 500 MB is check's
// bound; plan keeps the 10,000-node spec, its candidates and a re-validated
// copy of the spec per listed candidate, and peaks at 430-510 MiB under
// GOMEMLIMIT=500MiB (GOMEMLIMIT is a target, not a ceiling).
const hostilePlanRSS = 768 << 20

// maxRSS is the case's peak-RSS bound.
func (c hostileCase) maxRSS() int64 {
	if c.name == "plan 10,000 nodes" {
		return hostilePlanRSS
	}
	return hostileMaxRSS
}

// maxCPU is the case's CPU bound.
func (c hostileCase) maxCPU() time.Duration {
	if searchCases[c.name] {
		return hostileSearchCPU
	}
	return hostileMaxCPU
}

// runHostile runs one case and checks it against the bounds.
func runHostile(t *testing.T, bin, dir string, c hostileCase) {
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = strings.ReplaceAll(a, "$D", dir)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hostileMaxWall)
	defer cancel()
	// sh's ulimit caps the address space; exec keeps the same process, so
	// its rusage is vlaunch's.
	cmd := exec.CommandContext(ctx, "sh", append([]string{"-c", `ulimit -v 4194304; exec "$0" "$@"`, bin}, args...)...)
	cmd.Env = append(os.Environ(), fmt.Sprintf("GOMEMLIMIT=%dMiB", hostileMaxRSS>>20), "NO_COLOR=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("still running after %v (hang)", hostileMaxWall)
	}
	code := cmd.ProcessState.ExitCode()
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	rss := int64(ru.Maxrss) << 10 // KiB on Linux
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	text := out.String()
	t.Logf("exit %d, %v wall, %v CPU, %d MiB peak RSS", code, wall.Round(time.Millisecond), cpu.Round(time.Millisecond), rss>>20)
	switch {
	case strings.Contains(text, "panic:") || strings.Contains(text, "fatal error:") || strings.Contains(text, "goroutine "):
		t.Fatalf("crashed:\n%.2000s", text)
	case rss > c.maxRSS():
		t.Errorf("peak RSS %d MiB, over %d MiB", rss>>20, c.maxRSS()>>20)
	case cpu > c.maxCPU():
		t.Errorf("%v of CPU, over %v", cpu, c.maxCPU())
	}
	if c.exit >= 0 && code != c.exit || c.exit < 0 && code > 2 {
		t.Errorf("exit %d (err %v), want %d:\n%.2000s", code, err, c.exit, text)
	}
	if !regexp.MustCompile(c.want).MatchString(text) {
		t.Errorf("no diagnostic matching %q:\n%.2000s", c.want, text)
	}
}

// hostileFiles writes every input the cases name into dir.
func hostileFiles(t *testing.T, dir string) {
	ref, err := os.ReadFile("../../examples/deepseek-v3-32xh20.yaml")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	variant := func(name string, edits ...string) {
		s := string(ref)
		for i := 0; i+1 < len(edits); i += 2 {
			if !strings.Contains(s, edits[i]) {
				t.Fatalf("%s: %q not in the reference example", name, edits[i])
			}
			s = strings.Replace(s, edits[i], edits[i+1], 1)
		}
		write(name, []byte(s))
	}
	for _, fifo := range []string{"fifo.yaml", "hf-config.json", "tpl-fifo/hosts.tmpl"} {
		p := filepath.Join(dir, fifo)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	write("ref.yaml", ref)
	writeBig(t, filepath.Join(dir, "big.yaml"), 120<<20)
	write("binary.yaml", []byte("apiVersion: \x00\x01\x02\n"))
	write("empty.yaml", []byte("\n\n"))
	write("dense.yaml", []byte("a: ["+strings.Repeat("1,", 900000)+"1]\n"))
	write("aliasbomb.yaml", []byte(aliasBomb()))
	write("deep.yaml", []byte("a: "+strings.Repeat("[", 100000)+"\n"))
	write("dupkeys.yaml", []byte("apiVersion: vlaunch/v1\nkind: Deployment\nkind: Deployment\n"))
	write("latin1.sh", []byte("#!/bin/bash\n# caf\xe9\nvllm serve Qwen/Qwen3-8B --port 8000\n"))
	write("deepsubst.sh", []byte("vllm serve m --port "+strings.Repeat("$(", 20000)+strings.Repeat(")", 20000)+"\n"))
	write("secret.sh", []byte("# lint-version: 0.11.0\nvllm serve Qwen/Qwen3-8B --api-key sk-123\n"))
	write("hfconfig-fifo.yaml", []byte(strings.Replace(string(ref), "  name: deepseek-v3\n", "  config: hf-config.json\n", 1)))
	if err := os.MkdirAll(filepath.Join(dir, "tpl-typo"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("tpl-typo/host.tmpl", []byte("x\n"))
	write("bomb.log.gz", gzipBomb(t, 256<<20))
	conc := "  concurrency: 200                  # concurrent sessions (continuous batching)"
	variant("conc1e9.yaml", conc, "  concurrency: 1000000000")
	variant("conc1e6.yaml", conc, "  concurrency: 1000000")
	variant("rate1000.yaml", conc, conc+"\n  arrival_rate_per_s: 1000")
	variant("rate1e6.yaml", conc, conc+"\n  arrival_rate_per_s: 1000000")
	full := []string{"  session_tokens: 32768", "  session_tokens: 16777216"} // full-length sessions, as the reference states them
	variant("longout.yaml", "  max_model_len: 32768", "  max_model_len: 16777216", "  output_tokens: 1024", "  output_tokens: 16000000", full[0], full[1],
		"  port: 8000", "  port: 8000\n  env: {VLLM_ALLOW_LONG_MAX_MODEL_LEN: \"1\"}")
	variant("longprompt.yaml", "  max_model_len: 32768", "  max_model_len: 16777216", "  input_tokens: 1024", "  input_tokens: 16000000", full[0], full[1],
		"  port: 8000", "  port: 8000\n  max_num_seqs: 1\n  max_num_batched_tokens: 1\n  env: {VLLM_ALLOW_LONG_MAX_MODEL_LEN: \"1\"}")
	variant("burst20000.yaml", conc, "  burst_requests: 20000\n  arrival_rate_per_s: 100")
	many16, err := specfixture.MaxTTFTTargets([]byte(strings.Replace(string(ref), conc, "  burst_requests: 3529\n  arrival_rate_per_s: 100", 1)))
	if err != nil {
		t.Fatal(err)
	}
	write("burst16ttft.yaml", many16)
	variant("burstover.yaml", conc, "  burst_requests: 20000", "    - {input_tokens: 4096, p99_s: 2.0}\n", "    - {input_tokens: 4096, p99_s: 2.0}\n    - {input_tokens: 2048, p99_s: 2.0}\n")
	variant("secret.yaml", "  port: 8000", "  port: 8000\n  env: {HF_TOKEN: hf_abcdefghijklmnopqrstuvwxyzABCDEF}")
	for name, n := range map[string]int{"auto100.yaml": 100, "auto10000.yaml": 10000, "nodes10001.yaml": 10001} {
		data, err := specfixture.AutoOnNodes(ref, n)
		if err != nil {
			t.Fatal(err)
		}
		write(name, data)
	}
	dp, err := specfixture.OnNodes(ref, 10000, specfixture.DP10000)
	if err != nil {
		t.Fatal(err)
	}
	write("dp10000.yaml", dp)
	many, err := specfixture.MaxTTFTTargets(dp)
	if err != nil {
		t.Fatal(err)
	}
	write("dp10000ttft.yaml", many)
	write("million-out-rate.yaml", millionTokenOutputs(100, "{tensor: 4, pipeline: 1, data: 100, expert: false}", "arrival_rate_per_s: 0.01"))
	write("million-out-burst.yaml", millionTokenOutputs(4, "auto", "burst_requests: 3000"))
}

// millionTokenOutputs is Mixtral on n nodes of 4 MI300X serving prompts of
// 128 tokens with 999,872-token outputs at max_model_len 1,000,000 (more
// KV than the GPUs hold, so requests are preempted again and again): a
// run completes almost none of them in its work share. Found by
// tools/stress/gen.py.
func millionTokenOutputs(n int, parallelism, load string) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: vlaunch/v1\nkind: Deployment\nmodel: {name: mixtral-8x7b}\nhardware:\n  gpu: mi300x\n  nodes:\n")
	for i := range n {
		fmt.Fprintf(&b, "    - {name: n%d, address: 10.0.%d.%d, gpus: 4, interface: eth0, rdma_devices: [mlx5_0]}\n", i, i>>8, i&255)
	}
	b.WriteString("  network:\n    inter_node: {kind: roce, bandwidth_gbit_per_s: 25, nics_per_node: 1}\n")
	fmt.Fprintf(&b, "workload:\n  concurrency: 1000\n  max_model_len: 1000000\n  input_tokens: 128\n  output_tokens: 999872\n  %s\n", load)
	b.WriteString("slo:\n  throughput_tokens_per_s: 100\n  tpot_ms: 20\n")
	fmt.Fprintf(&b, "parallelism: %s\nvllm:\n  version: \"0.10.1\"\n  port: 8000\n  env: {VLLM_ALLOW_LONG_MAX_MODEL_LEN: \"1\"}\n", parallelism)
	return []byte(b.String())
}

// writeBig writes a YAML file of n spaces and one key, a MiB at a time:
// the test process must stay small, because a child's peak RSS as rusage
// reports it starts from the parent's at the fork.
func writeBig(t *testing.T, path string, n int) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := bytes.Repeat([]byte(" "), 1<<20)
	for ; n > 0; n -= len(chunk) {
		if _, err := f.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.WriteString("\na: 1\n"); err != nil {
		t.Fatal(err)
	}
}

// aliasBomb is a "billion laughs" document: each anchor repeats the one
// before ten times.
func aliasBomb() string {
	s := "apiVersion: vlaunch/v1\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		s += fmt.Sprintf("%s: &%s [%s]\n", n, n, strings.TrimSuffix(strings.Repeat("*"+prev+", ", 10), ", "))
		prev = n
	}
	return s
}

// gzipBomb is n bytes of log-like text compressed (a few hundred KiB).
func gzipBomb(t *testing.T, n int) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	line := []byte("INFO 12-02 10:00:00 [core.py:1] nothing to see here\n")
	for written := 0; written < n; written += len(line) {
		if _, err := zw.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// fuzzSeeds are the inputs of validate's fuzz corpus (testdata/fuzz, the
// go test fuzz v1 format).
func fuzzSeeds(t *testing.T) [][]byte {
	files, _ := filepath.Glob("../../validate/testdata/fuzz/FuzzValidate/*")
	var out [][]byte
	lit := regexp.MustCompile(`(?s)\[\]byte\((".*")\)`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := lit.FindSubmatch(data)
		if m == nil {
			continue
		}
		s, err := strconv.Unquote(string(m[1]))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, []byte(s))
	}
	return out
}
