package instrument

import (
	"runtime"
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD, which package syscall does not name.
const rusageThread = 1

// threadCPU returns a function that reports the CPU time (user and system)
// the calling goroutine's thread has used since, and releases the thread;
// ok is false where it cannot be read. Wall-clock ns/op on a machine other
// processes load counts the time they took the core; this does not.
func threadCPU() (since func() (time.Duration, bool)) {
	runtime.LockOSThread()
	t0, ok0 := readThreadCPU()
	return func() (time.Duration, bool) {
		t1, ok1 := readThreadCPU()
		runtime.UnlockOSThread()
		return t1 - t0, ok0 && ok1
	}
}

func readThreadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
