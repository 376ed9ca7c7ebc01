package localcluster

import (
	"bytes"
	"fmt"
	"os"
	"sync"
	"time"
)

// CRILog is a container's log file as a container runtime writes it (CRI
// format, "<RFC3339Nano> stderr F <line>"): what kwok, like the kubelet,
// serves for pods/log. It takes concurrent writes.
type CRILog struct {
	path string

	mu      sync.Mutex
	f       *os.File
	partial []byte
}

// NewCRILog creates the file at path.
func NewCRILog(path string) (*CRILog, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &CRILog{path: path, f: f}, nil
}

// Path is the file's path.
func (l *CRILog) Path() string { return l.path }

// Write stamps each complete line with the time it arrived; a partial line
// waits for its end.
func (l *CRILog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	data := append(l.partial, p...)
	var out bytes.Buffer
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		fmt.Fprintf(&out, "%s stderr F %s\n", time.Now().UTC().Format(time.RFC3339Nano), data[:i])
		data = data[i+1:]
	}
	l.partial = bytes.Clone(data)
	_, err := l.f.Write(out.Bytes())
	return len(p), err
}

// Close closes the file, once whatever writes to it has stopped.
func (l *CRILog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Close()
}
