package instrument

import (
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// BenchmarkScrapeAt100k is one scrape of a probe tracking 100,000 failing
// keys, beside what the endpoint already pays over the same store: the
// counts of v1/controllers, and the bare copy of every shard that the scrape
// builds on (the only time it holds a lock). The scrape allocates only its
// counts and the eleven series: the copy buffer is reused.
func BenchmarkScrapeAt100k(b *testing.B) {
	p, _ := benchFailingProbe(b, 100_000, 100, 100)
	reg := benchRegistryOf(p)
	c := newCollector(p, reg)
	p.store.maybeSweep(p.store.now()) // not part of a scrape
	b.Run("scrape", func(b *testing.B) {
		ch := make(chan prometheus.Metric, 16)
		b.ReportAllocs()
		for b.Loop() {
			c.Collect(ch)
			for len(ch) > 0 {
				<-ch
			}
		}
	})
	b.Run("v1-controllers", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p.info(p.now())
		}
	})
	b.Run("copy-only", func(b *testing.B) {
		var buf []query.Item
		b.ReportAllocs()
		for b.Loop() {
			buf, _ = p.store.scan(b.Context(), p.store.now(), buf, func([]query.Item) error { return nil })
		}
	})
}
