package lint

import (
	"net"
	"regexp"
	"strconv"
	"strings"
)

// socketIfnameVars pick the network interface for socket traffic; the
// value says whose syntax applies: NCCL's (^ excludes, = matches exactly,
// commas list prefixes) or Gloo's (comma-separated interface names).
var socketIfnameVars = map[string]string{
	"NCCL_SOCKET_IFNAME": "nccl", "GLOO_SOCKET_IFNAME": "gloo", "TP_SOCKET_IFNAME": "gloo",
	"NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME": "plain", "UCX_NET_DEVICES": "plain",
}

// addressVars hold one node's address.
var addressVars = map[string]bool{"VLLM_HOST_IP": true, "MASTER_ADDR": true, "VLLM_DP_MASTER_IP": true}

// addressFlags take a node's address.
var addressFlags = map[string]bool{"data-parallel-address": true, "master-addr": true}

// fillInWord matches a value written as a name for the reader to replace:
// prefill_node_1_ip, master_addr, your_port, node0-ip — lower-case words
// joined by _ or - that name an address, port or interface.
var fillInWord = regexp.MustCompile(`^[a-z][a-z0-9]*([_-][a-z0-9]+)*[_-](ip|ips|addr|address|host|hostname|port|ifname|nic|iface|interface)$|^(your|my)[_-][a-z0-9_-]+$`)

// badNetEnv checks a network variable's value; "" when fine or not one.
// An empty value reads as unset (vLLM, Gloo and NCCL take "" as "not
// given"), and a fill-in name is a placeholder, not a value.
func badNetEnv(name, value string) string {
	if value == "" || fillInWord.MatchString(value) {
		return ""
	}
	if syntax, ok := socketIfnameVars[name]; ok {
		return badIfname(syntax, value)
	}
	if addressVars[name] {
		return badAddress(value)
	}
	return ""
}

// badIfname reports characters no interface name has (`"eth0"/`, a stray
// quote, a carriage return) and NCCL's ^/= syntax where Gloo reads plain names.
func badIfname(syntax, v string) string {
	for _, c := range v {
		if !(c == '_' || c == '.' || c == ':' || c == '@' || c == ',' || c == '-' || c == '^' || c == '=' ||
			(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			return "has " + strconv.QuoteRune(c) + ", which no interface name has (a quoting slip?)"
		}
	}
	if syntax != "nccl" && (strings.HasPrefix(v, "^") || strings.HasPrefix(v, "=")) {
		return "uses NCCL's " + v[:1] + " syntax; this variable takes plain interface names (comma-separated), so it names an interface that does not exist"
	}
	if strings.Contains(v[1:], "^") || strings.Contains(v[1:], "=") {
		return "has ^ or = inside the list; NCCL reads them only as the first character"
	}
	// An address where a name belongs matches no interface: Gloo dies with
	// "Unable to find address for: <ip>" on every rank (AMD-AGI/Primus#1063,
	// whose fallback put an IP into NCCL/GLOO_SOCKET_IFNAME).
	for _, item := range strings.Split(strings.TrimLeft(v, "^="), ",") {
		if net.ParseIP(item) != nil {
			return "is an IP address (" + item + "); this variable takes interface names (eth0, ib0, bond0), and no interface has that name (Gloo: \"Unable to find address for: " + item + "\")"
		}
	}
	return ""
}

// badAddress reports a value that is neither an IP address nor a host name.
func badAddress(v string) string {
	if net.ParseIP(v) != nil || hostName(v) {
		return ""
	}
	return "is not an IP address or a host name"
}

// hostName reports an RFC 1123 host name.
func hostName(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(strings.TrimSuffix(h, "."), ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
				return false
			}
		}
	}
	return true
}
