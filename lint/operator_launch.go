package lint

import (
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// operatorRayLaunch rewrites the multinode launch an operator appended
// (Dynamo: --distributed-executor-backend mp --nnodes N --master-addr ...
// --node-rank r, workers --headless) for a release without --nnodes: the
// Dynamo operator then launches over Ray (backend_vllm.go's Ray path, its
// only path before the mp one): the leader runs `ray start --head` and the
// command with --distributed-executor-backend ray, every other node only
// `ray start --address=<leader>:6379 --block`. It returns the server to lint
// (nil for a Ray-only node) and the Ray node the pod starts (nil when the
// launch is kept).
func operatorRayLaunch(inv *launch.Invocation, rel vllm.Release) (*launch.Invocation, *launch.Invocation) {
	if !hasWord(inv.OperatorArgs, "--nnodes") {
		return inv, nil
	}
	if p, _ := rel.FlagIn("nnodes"); p != vllm.Absent {
		return inv, nil
	}
	at := inv.OperatorArgs[0].Pos
	word := func(s string) launch.Value { return launch.Value{Text: s, Known: true, Pos: at} }
	ray := *inv
	ray.Launcher, ray.OperatorArgs = "dynamo operator (ray)", nil
	if hasWord(inv.OperatorArgs, "--headless") {
		ray.Kind, ray.Args = launch.KindRayWorker, []launch.Value{{Text: "--address=$(LEADER_HOSTNAME):6379", Pos: at, Unresolved: []string{"LEADER_HOSTNAME"}}, word("--block")}
		return nil, &ray
	}
	ray.Kind, ray.Args = launch.KindRayHead, []launch.Value{word("--head"), word("--port=6379")}
	serve := *inv
	base := inv.Args[:len(inv.Args)-len(inv.OperatorArgs)]
	serve.Args = append(append([]launch.Value{}, base...), word("--distributed-executor-backend"), word("ray"))
	serve.OperatorArgs = serve.Args[len(base):]
	return &serve, &ray
}

// hasWord reports an arg whose text is w.
func hasWord(args []launch.Value, w string) bool {
	for _, a := range args {
		if a.Text == w {
			return true
		}
	}
	return false
}
