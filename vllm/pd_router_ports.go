package vllm

// The vLLM router's Prometheus metrics listener (QA left 39 #2).
//
// vllm-project/router@03e9af5c1982:src/main.rs declares
// `#[arg(long, default_value_t = 29000)] prometheus_port: u16` ("Port to
// expose Prometheus metrics") and `#[arg(long, default_value =
// "127.0.0.1")] prometheus_host` ("Host address to bind the Prometheus
// metrics server"), and to_server_config always sets
// `prometheus_config: Some(PrometheusConfig { port, host })`: no flag turns
// the listener off. server.rs's startup (stored version 00edc4e9) calls
// metrics::start_prometheus(prometheus_config) before the router listens,
// and metrics.rs's start_prometheus (stored version 02b9331f) binds
// SocketAddr(host, port) with PrometheusBuilder::with_http_listener and
// `.install().expect("failed to install Prometheus metrics exporter")`.
// So every vllm-router binds 127.0.0.1:29000 besides --host:--port (whose
// default is 30000, the same main.rs) unless told otherwise.
const (
	// RouterMetricsPort is vllm-router's --prometheus-port default, which
	// vlaunch writes explicitly into router.sh.
	RouterMetricsPort = 29000
	// RouterMetricsHost is its --prometheus-host default: loopback only.
	RouterMetricsHost = "127.0.0.1"
	// RouterDefaultPort is vllm-router's --port default.
	RouterDefaultPort = 30000
	// RouterMetricsSource cites the above.
	RouterMetricsSource = "vllm-project/router@03e9af5c1982 src/main.rs (--prometheus-port default 29000, --prometheus-host default 127.0.0.1, " +
		"prometheus_config always Some); src/server.rs startup -> metrics::start_prometheus, src/metrics.rs binds with_http_listener(host:port)"
)
