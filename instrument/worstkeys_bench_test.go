package instrument

import (
	"fmt"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// BenchmarkScrapeWorstKeysAt100k is one scrape of a probe tracking 100,000
// failing keys without WorstKeys (today's scrape, BenchmarkScrapeAt100k's)
// and with the default and the most worst keys, side by side in one run:
// the selection must keep a scrape within 2× of the first.
func BenchmarkScrapeWorstKeysAt100k(b *testing.B) {
	p, _ := benchFailingProbe(b, 100_000, 100, 100)
	reg := benchRegistryOf(p)
	p.store.maybeSweep(p.store.now()) // not part of a scrape
	for _, n := range []int{0, DefaultWorstKeys, MaxWorstKeys} {
		c := newCollector(p, reg)
		c.worstN = n
		b.Run(fmt.Sprintf("worst-keys-%d", n), func(b *testing.B) {
			ch := make(chan prometheus.Metric, 64)
			b.ReportAllocs()
			for b.Loop() {
				c.Collect(ch)
				for len(ch) > 0 {
					<-ch
				}
			}
		})
	}
}
