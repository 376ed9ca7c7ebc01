package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// sniffBytes is how much of a saved log is looked at before it is read.
const sniffBytes = 64 << 10

// savedLog is how a saved log file is read, judged by its first bytes: a
// gzip-compressed one (a rotated log, app.log.1.gz) through gzip, as zcat
// would; one holding a NUL byte, which no log writer writes, is refused as
// not text, instead of read as 300,000 lines of which none is a
// controller's. One that begins with a UTF-16 byte order mark (Windows
// PowerShell 5.1's `kubectl logs POD > app.log` writes UTF-16LE) is read
// through a decoder, as text, once; it held NUL bytes and was refused as
// not text. Only a regular file is looked at: a pipe's first bytes may
// be minutes away.
func savedLog(name string, f *os.File) (io.Reader, error) {
	head := make([]byte, sniffBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("--from-logs %s: %w", name, err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("--from-logs %s: %w", name, err)
	}
	head = head[:n]
	if bytes.HasPrefix(head, []byte{0x1f, 0x8b}) {
		z, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("--from-logs %s begins as gzip does, but is not gzip: %v", name, err)
		}
		return gzipFile{z, f}, nil
	}
	if bytes.HasPrefix(head, []byte{0xff, 0xfe}) || bytes.HasPrefix(head, []byte{0xfe, 0xff}) {
		// BOMOverride reads the mark's byte order and drops the mark.
		return decodedFile{transform.NewReader(f, unicode.BOMOverride(unicode.UTF8.NewDecoder())), f}, nil
	}
	if i := bytes.IndexByte(head, 0); i >= 0 {
		return nil, fmt.Errorf("--from-logs %s is not text (a NUL byte at offset %d): give a controller's log as kubectl logs prints it", name, i)
	}
	return f, nil
}

// sniffPipe is how a pipe (stdin, a FIFO) is read, judged by its first
// bytes as savedLog judges a file's: through gzip when it begins as gzip
// does (kubectl logs … | gzip, or a .gz piped without zcat: read as text it
// was 0 records and no hint). It waits for those bytes: call it where an
// interrupt ends the wait.
func sniffPipe(name string, r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	if head, _ := br.Peek(2); !bytes.Equal(head, []byte{0x1f, 0x8b}) {
		return br, nil
	}
	z, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("--from-logs %s begins as gzip does, but is not gzip: %v", name, err)
	}
	return z, nil
}

// gzipFile reads a file through gzip; closing it closes both.
type gzipFile struct {
	*gzip.Reader
	f *os.File
}

func (g gzipFile) Close() error { return errors.Join(g.Reader.Close(), g.f.Close()) }

// decodedFile reads a file through a decoder (UTF-16 to UTF-8); closing it
// closes the file.
type decodedFile struct {
	io.Reader
	f *os.File
}

func (d decodedFile) Close() error { return d.f.Close() }
