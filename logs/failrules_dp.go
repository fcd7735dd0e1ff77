package logs

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// zmqBind is the endpoint a ZMQ bind failed on; the report decides once
// the whole log is read whether it is the deployment's DP endpoint.
type zmqBind struct {
	host, errno string
	port        int
}

// bindFixes say what each bind error means for the DP address. vLLM
// makes the endpoint tcp://ADDRESS:PORT from --data-parallel-address as
// given (vllm/v1/utils.py get_engine_client_zmq_addr) and the front-end's
// node binds it; ZMQ binds only '*', a numeric IP or an interface name
// (zmq_tcp(7)).
var bindFixes = map[string]string{
	"Cannot assign requested address": "%[1]s is not an address of this node: vLLM binds --data-parallel-address as given on the node that runs the front-end, so that node must be given its own IP.",
	"No such device":                  "%[1]s is not a numeric IP or an interface name of this node: vLLM hands the address to ZMQ unresolved and ZMQ does not resolve a hostname for a bind; pass the node's (or pod's) IP.",
	"Address already in use":          "port %[2]d is taken on this node (a vLLM still shutting down, another instance): stop that process or choose another --data-parallel-rpc-port.",
}

// dpBindRules recognise ZMQ failing to bind an address (vllm#31884:
// "zmq.error.ZMQError: Cannot assign requested address
// (addr='tcp://10.27.91.102:13345')").
func dpBindRules() []rule {
	bind := r(one("ZMQError: "), `ZMQError: (Cannot assign requested address|Address already in use|No such device)[^(]*\(addr='tcp://\[?([^'\]]*?)\]?:(\d+)'\)`, func(c *ctx, m [][]byte) {
		port, _ := strconv.Atoi(string(m[3]))
		b := &zmqBind{host: string(m[2]), port: port, errno: string(m[1])}
		msg := fmt.Sprintf("ZMQ cannot bind tcp://%s:%d: %s", b.host, b.port, b.errno)
		fix := fmt.Sprintf(bindFixes[b.errno], b.host, b.port)
		c.noted = true
		if c.p.nixlFrames || c.r.nixlListener {
			c.str(fSideChannel, []byte(fmt.Sprintf("%s:%d", b.host, b.port)))
		}
		if f := c.fail(CodeDPBind, msg, fix); f != nil && f.bind == nil {
			f.bind = b
		}
	})
	return []rule{bind}
}

// checkDPAddress warns when a server that binds the DP address was given a
// name rather than an IP (llm-d-modelservice#7: 'data_parallel_address':
// 'rank0'). Headless nodes and DP ranks above 0 only connect to it, and
// ZMQ resolves names for a connect.
func checkDPAddress(c *ctx, args map[string]string) {
	addr := strings.Trim(strings.TrimSpace(args["data_parallel_address"]), "[]")
	if addr == "" || addr == "None" || net.ParseIP(addr) != nil || args["headless"] == "True" {
		return
	}
	for _, k := range []string{"data_parallel_rank", "data_parallel_start_rank"} {
		if n, err := strconv.Atoi(args[k]); err == nil && n > 0 {
			return
		}
	}
	c.fail(CodeDPHostname, fmt.Sprintf("--data-parallel-address %q is a hostname: vLLM binds it as given on this node, and ZMQ binds only an IP address or an interface name", clip(addr, 80)), "")
}

// dpContext reports whether a process's failure concerns data
// parallelism: its traceback ran through vLLM's DP code, its file started
// a DP coordinator, or it is an engine core or front-end of a deployment
// with more than one DP rank.
func (a *analyzer) dpContext(p *proc) bool {
	if p.dpFrames || a.files[p.file].dpCoordinator {
		return true
	}
	if p.role == roleWorker {
		return false
	}
	for _, q := range a.order {
		if q.file == p.file && q.attempt == p.attempt && q.facts[fDP].set && q.facts[fDP].num > 1 {
			return true
		}
	}
	return false
}

// dpEndpoint reports whether a bind failure is on the deployment's DP
// address or RPC port, as the processes of its file logged them.
func (a *analyzer) dpEndpoint(p *proc, b *zmqBind) bool {
	if a.dpContext(p) {
		return true
	}
	for _, q := range a.order {
		if q.file != p.file || q.attempt != p.attempt {
			continue
		}
		if v := q.facts[fDPRPCPort]; v.set && int(v.num) == b.port {
			return true
		}
		if v := q.facts[fDPAddress]; v.set && v.str == b.host {
			return true
		}
	}
	return false
}
