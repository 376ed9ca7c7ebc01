package inspector

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// watchIdle is how long a watch may say nothing (the server sends a
// bookmark every tick, a second) before the client takes it for broken
// and resumes it.
const watchIdle = 10 * time.Second

// watchRetry is the wait before a broken watch is resumed.
const watchRetry = time.Second

// Watch mirrors one endpoint's watched page (api.WatchEvent) — a page of
// v1/keys (KeyWatch), v1/errors' groups (ErrorWatch) or v1/controllers
// (ControllerWatch): the page, kept up to date by the changes, resumed
// from its position when the stream breaks, listed again when the server
// says the position is too old. What a reader sees is Page; Changed says
// when.
type Watch[L any] struct {
	kind *watchKind[L]
	// notify, when set, is told of every event too (a session's one
	// signal for all its watches); it must not block.
	notify func()

	mu      sync.Mutex
	page    L
	rv      string
	err     error // why the stream is down, nil while it is up
	changed chan struct{}
}

// KeyWatch mirrors a page of v1/keys (Client.WatchKeys).
type KeyWatch = Watch[api.KeyList]

// ErrorWatch mirrors v1/errors' groups (Client.WatchErrors).
type ErrorWatch = Watch[api.ErrorGroupList]

// ControllerWatch mirrors v1/controllers (Client.WatchControllers).
type ControllerWatch = Watch[api.ControllerList]

// WatchKeys opens a watch of q on the endpoint and returns once its first
// page is in, within open (a call's deadline); the watch then runs until
// life ends. An endpoint that does not offer it (Capabilities.CanWatch)
// refuses it: poll Keys instead.
func (c *Client) WatchKeys(life, open context.Context, q KeyQuery) (*KeyWatch, error) {
	return openMirror(c, life, open, keysKind, q.Values(), nil)
}

// WatchErrors is WatchKeys for v1/errors' groups, as Errors selects them.
func (c *Client) WatchErrors(life, open context.Context, controller string, f api.Filter) (*ErrorWatch, error) {
	return openMirror(c, life, open, errorsKind, errorsValues(controller, f), nil)
}

// WatchControllers is WatchKeys for v1/controllers.
func (c *Client) WatchControllers(life, open context.Context) (*ControllerWatch, error) {
	return openMirror(c, life, open, controllersKind, url.Values{}, nil)
}

// openMirror opens kind's watch with parameters v and reads its page;
// notify (may be nil) is told of each event after.
func openMirror[L any](c *Client, life, open context.Context, kind *watchKind[L], v url.Values, notify func()) (*Watch[L], error) {
	w := &Watch[L]{kind: kind, changed: make(chan struct{}), notify: notify}
	body, err := c.openWatch(life, kind.endpoint, v, "")
	if err != nil {
		return nil, err
	}
	unbind := context.AfterFunc(open, body.cancel)
	lines := newLineReader(body)
	err = w.next(lines)
	if !unbind() || err != nil {
		body.Close()
		return nil, cmp.Or(open.Err(), err)
	}
	go w.run(life, c, v, body, lines)
	return w, nil
}

// Page is the page as the watch has it now, its position, and why the
// stream is down (nil while it is up; the page is then the last one seen).
// It is the caller's: a copy.
func (w *Watch[L]) Page() (*L, string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	p := w.kind.clone(w.page)
	return &p, w.rv, w.err
}

// Changed is closed at the watch's next event (a change, a bookmark, the
// stream breaking): wait on it, then read Page and ask again.
func (w *Watch[L]) Changed() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.changed
}

// run reads events until ctx ends, resuming the stream when it breaks.
func (w *Watch[L]) run(ctx context.Context, c *Client, v url.Values, body interface{ Close() error }, lines *lineReader) {
	for {
		var err error
		for err == nil {
			err = w.next(lines)
		}
		body.Close()
		if ctx.Err() != nil {
			return
		}
		var gone *watchGone
		rv := w.position()
		if errors.As(err, &gone) {
			rv = "" // too old: the page again
		}
		w.down(err)
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(watchRetry):
			}
			b, oerr := c.openWatch(ctx, w.kind.endpoint, v, rv)
			if ae, ok := errors.AsType[*APIError](oerr); ok && ae.Code == http.StatusGone {
				rv = ""
				continue
			}
			if oerr != nil {
				w.down(oerr)
				continue
			}
			body, lines = b, newLineReader(b)
			break
		}
	}
}

// watchGone is the server's word that a position is too old.
type watchGone struct{ msg string }

func (e *watchGone) Error() string { return e.msg }

// next reads one event and applies it.
func (w *Watch[L]) next(lines *lineReader) error {
	line, err := lines.next()
	if err != nil {
		return err
	}
	var ev api.WatchEvent
	if err := json.Unmarshal(line, &ev); err != nil {
		return fmt.Errorf("watch: not a watch event: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch ev.Type {
	case api.WatchPage, api.WatchChange:
		if err := w.kind.apply(&w.page, &ev); err != nil {
			return err
		}
	case api.WatchBookmark:
	case api.WatchError:
		msg := "watch: the endpoint ended it"
		if ev.Error != nil {
			msg = ev.Error.Message
			if ev.Error.Code == http.StatusGone {
				return &watchGone{msg}
			}
		}
		return errors.New(msg)
	default:
		return fmt.Errorf("watch: unknown event %q", ev.Type)
	}
	w.kind.setTime(&w.page, ev.ServerTime)
	w.rv, w.err = ev.ResourceVersion, nil
	w.signal()
	return nil
}

func (w *Watch[L]) position() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.rv
}

// down records why the stream broke, and says so to whoever waits.
func (w *Watch[L]) down(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.err = err
	w.signal()
}

// signal tells whoever waits that an event came; w.mu is held.
func (w *Watch[L]) signal() {
	close(w.changed)
	w.changed = make(chan struct{})
	if w.notify != nil {
		w.notify()
	}
}

// openWatch starts the stream at position rv ("" for the page). It has no
// overall timeout, unlike a list: it lasts; watchIdle bounds its silences.
func (c *Client) openWatch(ctx context.Context, endpoint string, query url.Values, rv string) (*idleBody, error) {
	v := url.Values{}
	maps.Copy(v, query)
	v.Set("watch", "true")
	if rv != "" {
		v.Set("resourceVersion", rv)
	}
	u := c.base.JoinPath(endpoint)
	u.RawQuery = v.Encode()
	ctx, cancel := context.WithCancel(ctx)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		cancel()
		return nil, err
	}
	req.Header.Set("Accept", "application/x-ndjson")
	// The silence bound holds from the start: an endpoint that never
	// answers (a stopped process, a dead tunnel) ends the attempt too.
	timer := time.AfterFunc(watchIdle, cancel)
	resp, err := (&http.Client{Transport: c.http.Transport}).Do(req)
	if err != nil {
		timer.Stop()
		cancel()
		return nil, fmt.Errorf("GET %s: %w", u.Redacted(), err)
	}
	if resp.StatusCode != http.StatusOK {
		timer.Stop()
		defer cancel()
		defer resp.Body.Close()
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return nil, newAPIError(http.MethodGet, u, resp.StatusCode, data)
	}
	return &idleBody{resp: resp, cancel: cancel, timer: timer}, nil
}

// lineReader reads a watch's JSON lines, each bounded as a list answer is.
type lineReader struct{ s *bufio.Scanner }

func newLineReader(b *idleBody) *lineReader {
	s := bufio.NewScanner(b)
	s.Buffer(make([]byte, 0, 64<<10), maxResponseBytes)
	return &lineReader{s}
}

func (l *lineReader) next() ([]byte, error) {
	if l.s.Scan() {
		return l.s.Bytes(), nil
	}
	if err := l.s.Err(); err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	return nil, errors.New("watch: the endpoint closed the stream")
}

// idleBody is a watch's response body that gives up (cancels its request)
// when nothing has arrived for watchIdle: a stopped endpoint or a dead
// tunnel then ends the read instead of hanging it.
type idleBody struct {
	resp   *http.Response
	cancel context.CancelFunc
	timer  *time.Timer
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.resp.Body.Read(p)
	if n > 0 {
		b.timer.Reset(watchIdle)
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.timer.Stop()
	b.cancel()
	return b.resp.Body.Close()
}
