package launch

import (
	"reflect"
	"strings"
	"testing"
)

func TestFindPlaceholders(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"vllm serve <model-path> --headless", []string{"<model-path>"}},
		{"ray start --address='<IP>:<PORT>'", []string{"<IP>", "<PORT>"}},
		{"-e VLLM_HOST_IP=<HEAD_NODE_IP>", []string{"<HEAD_NODE_IP>"}},
		{"--host [master ip addr] --port 1", []string{"[master ip addr]"}},
		{"--api-key xxx --host 10.0.0.x", []string{"xxx", "10.0.0.x"}},
		{"HF_TOKEN=*** vllm serve m", []string{"***"}},
		{"image: {{ .Values.image }}", []string{"{{ .Values.image }}"}},
		{`export GLOO_SOCKET_IFNAME="{nic_name}"`, []string{"{nic_name}"}},
		{"--data-parallel-address {ip of node0} --x 1", []string{"{ip of node0}"}},
		{"--data-parallel-address { node0 ip } \\\n", []string{"{ node0 ip }"}},
		{"export DP_START_RANK=<1_OR_2_OR_3>", []string{"<1_OR_2_OR_3>"}},
		{"--port `<port>` --x 1", []string{"`<port>`"}},
		{"vllm serve m \\\n  ...\n", []string{"..."}},
		{"--kv-transfer-config '{...}'", []string{"{...}"}},
		{"vllm serve --port 8100 ...   # server 0", []string{"..."}},
		// vllm-ascend DeepSeek-V4-Flash tutorial (lint42): a lone x as an option's value
		{"launch_online_dp.py --dp-rank-start x --dp-address x.x.x.x --dp-rpc-port 12321", []string{"x", "x.x.x.x"}},
		{"--node-rank=xx\n", []string{"xx"}},
		// not placeholders
		{"echo ${A} ${B:-x} {a,b} {0..3} a{,.bak}", nil},
		{"echo wait... done", nil},
		{"sort <in.txt >out.txt", nil},
		{"cat <<EOF >x", nil},
		{"if [ \"$a\" = 1 ]; then x; fi", nil},
		{"echo ${A[i]} --tp 8 --host 10.0.0.12 -v 0.11.1", nil},
		{"vllm serve m 2>&1 | tee log", nil},
		{"tar -x -f a.tar; chmod +x run.sh; cmake --arch x86 -x c", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, sp := range findPlaceholders([]byte(tt.text), false) {
			got = append(got, tt.text[sp.start:sp.end])
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestYAMLFlowSequenceIsNotPlaceholder: in YAML, `[gpu]` where a value
// starts is a list; a bracketed word inside a quoted string or a command
// still is a placeholder.
func TestYAMLFlowSequenceIsNotPlaceholder(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"capabilities: [gpu]\n", nil},
		{"- [gpu]\n", nil},
		{"devices: [[gpu]]\n", nil},
		{"  [gpu]\n", nil},
		{"args: [\"--host\", \"[master ip]\"]\n", []string{"[master ip]"}},
		{"command: vllm serve [your-model] --tp 8\n", []string{"[your-model]"}},
	}
	for _, tt := range tests {
		var got []string
		for _, sp := range findPlaceholders([]byte(tt.text), true) {
			got = append(got, tt.text[sp.start:sp.end])
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestPlaceholderKeepsNextWord: `<X>` is one unresolved argument, not a
// redirection eating --headless.
func TestPlaceholderKeepsNextWord(t *testing.T) {
	invs, _, _ := ParseShell("p.sh", []byte("vllm serve <model> --data-parallel-address <HEAD_IP> --headless\n"))
	got := argv(invs)
	if len(got) != 1 || got[0] != "<model> --data-parallel-address <HEAD_IP> --headless" {
		t.Fatalf("argv = %q", got)
	}
	if invs[0].Args[0].Known || invs[0].Args[0].Unresolved[0] != "<model>" {
		t.Errorf("placeholder must be unresolved: %+v", invs[0].Args[0])
	}
}

// TestPlaceholderNoteListsLaunchValues: the note lists the placeholders a
// launch reads, not those of a usage message or of a here-document another
// program runs; a template's directives are always listed.
func TestPlaceholderNoteListsLaunchValues(t *testing.T) {
	tests := []struct {
		name, script, want string
	}{
		{"usage echo", "echo \"Usage: $0 <role> <HEAD_IP>\"\nvllm serve m --data-parallel-address \"$2\"\n", ""},
		{"python heredoc", "IF=$(python3 - <<'PY'\nprint(f\"{source_ip}\")\nPY\n)\nvllm serve m\n", ""},
		{"launch value", "echo \"Usage: $0 <role>\"\nHEAD=<HEAD_IP>\nvllm serve m --data-parallel-address $HEAD\n", "<HEAD_IP>"},
		{"ray address", "ray start --address=<head ip>:6379\n", "<head ip>"},
		// QA41 D4: another program's own Go template is no placeholder.
		{"docker format template", "st=$(docker inspect -f '{{.State.Status}}' c)\nvllm serve m\n", ""},
		{"kubectl go-template", "kubectl get pod p -o go-template={{.status.podIP}}\nvllm serve m\n", ""},
		{"template value reaching a launch", "vllm serve m --port {{ .Values.port }}\n", "{{ .Values.port }}"},
		{"template directive alone on a line", "{{- if .Values.ray }}\nray start --head\n{{- end }}\nvllm serve m\n", "{{- if .Values.ray }}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, ds := ParseShell("p.sh", []byte(tt.script))
			got := ""
			for _, d := range ds {
				if d.Code == CodePlaceholder {
					got = d.Message
				}
			}
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("note = %q, want one listing %q", got, tt.want)
			}
			if tt.want != "" && strings.Contains(got, "<role>") {
				t.Errorf("note lists the usage message's <role>: %q", got)
			}
		})
	}
}
