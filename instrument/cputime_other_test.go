//go:build !linux

package instrument

import "time"

// threadCPU is unavailable here: the benchmarks report wall time alone.
func threadCPU() (since func() (time.Duration, bool)) {
	return func() (time.Duration, bool) { return 0, false }
}
