package cli_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// prometheusBin is Debian's prometheus package's binary (.ci/run installs
// it); PROMETHEUS_BIN overrides it.
func prometheusBin(t testing.TB) string {
	t.Helper()
	bin := os.Getenv("PROMETHEUS_BIN")
	if bin == "" {
		bin = "/usr/bin/prometheus"
	}
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("a real Prometheus is needed and %s is absent: .ci/run installs Debian's prometheus package (apt-get install -y prometheus)", bin)
		}
		t.Skipf("skipped: no Prometheus at %s (apt-get install -y prometheus, or set PROMETHEUS_BIN); CI=true fails instead", bin)
	}
	return bin
}

// scrapeTarget is one target of the test's Prometheus: host:port, and the
// labels its series get, as a scrape configuration adds them.
type scrapeTarget struct {
	addr   string
	labels map[string]string
}

// startPrometheus runs a real Prometheus scraping targets every second,
// on a free loopback port with its own storage, until the test ends, and
// returns its URL once it is ready.
func startPrometheus(t testing.TB, targets ...scrapeTarget) string {
	t.Helper()
	return startPrometheusEvery(t, time.Second, targets...)
}

// startPrometheusEvery is startPrometheus scraping every interval.
func startPrometheusEvery(t testing.TB, interval time.Duration, targets ...scrapeTarget) string {
	t.Helper()
	return startPrometheusExternal(t, interval, nil, targets...)
}

// startPrometheusExternal is startPrometheusEvery with the global
// external_labels external.
func startPrometheusExternal(t testing.TB, interval time.Duration, external map[string]string, targets ...scrapeTarget) string {
	t.Helper()
	bin := prometheusBin(t)
	dir := t.TempDir()
	var cfg strings.Builder
	fmt.Fprintf(&cfg, "global:\n  scrape_interval: %v\n  scrape_timeout: %v\n", interval, interval)
	if len(external) > 0 {
		cfg.WriteString("  external_labels:\n")
		for k, v := range external {
			fmt.Fprintf(&cfg, "    %s: %q\n", k, v)
		}
	}
	cfg.WriteString("scrape_configs:\n")
	for i, tg := range targets {
		fmt.Fprintf(&cfg, "- job_name: t%d\n  static_configs:\n  - targets: [%q]\n    labels:\n", i, tg.addr)
		for k, v := range tg.labels {
			fmt.Fprintf(&cfg, "      %s: %q\n", k, v)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(cfg.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, bin,
		"--config.file="+filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr,
		"--log.level=warn")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start %s: %v", bin, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cancel()
		<-exited
	})
	url := "http://" + addr
	pollUntil(t, 30*time.Second, "Prometheus ready at "+url, func() (bool, string) {
		select {
		case <-exited:
			t.Fatalf("prometheus exited:\n%s", out.String())
		default:
		}
		resp, err := http.Get(url + "/-/ready")
		if err != nil {
			return false, err.Error()
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, resp.Status
	})
	return url
}

// freeAddr is a loopback address with a port free now. Prometheus does
// not report the port it bound to, so 127.0.0.1:0 will not do; another
// process could take the port in between, which fails the test loudly.
func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// pollUntil polls cond until it holds or the deadline passes; on timeout the
// test fails with what and cond's last word. Polling, not sleeping: each
// round waits only for the ticker.
func pollUntil(t testing.TB, timeout time.Duration, what string, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	last := ""
	for {
		ok, why := cond()
		if ok {
			return
		}
		last = why
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s; last: %s", timeout, what, last)
		}
		<-tick.C
	}
}
