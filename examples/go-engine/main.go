// Command go-engine is a Chinese poker engine that plays one house variant
// (house.go) and speaks the capsa conformance protocol, version 1
// (docs/conformance.md): JSON Lines on standard input and output, one
// answer per request, in order.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

const maxLine = 1 << 20 // a request is at most 1 MiB

// engineError is an answer's "error": its kind is "invalid", "unsupported"
// or "internal".
type engineError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

func (e *engineError) Error() string { return e.Kind + ": " + e.Message }

func invalidf(format string, args ...interface{}) error {
	return &engineError{"invalid", fmt.Sprintf(format, args...)}
}

func unsupportedf(format string, args ...interface{}) error {
	return &engineError{"unsupported", fmt.Sprintf(format, args...)}
}

type response struct {
	ID     json.RawMessage `json:"id"`
	Result interface{}     `json:"result,omitempty"`
	Error  *engineError    `json:"error,omitempty"`
}

// nullResult marks answers whose result is JSON null (natural): "result"
// must then be written, not left out.
type nullResult struct{}

func (nullResult) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

func main() {
	if err := implemented(House); err != nil {
		fmt.Fprintln(os.Stderr, "go-engine:", err)
		os.Exit(2)
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	for {
		line, err := readLine(in)
		if len(line) > 0 || errors.Is(err, errTooLong) {
			writeResponse(out, answer(line, err))
		}
		if err == io.EOF {
			break
		}
		if err != nil && !errors.Is(err, errTooLong) {
			fmt.Fprintln(os.Stderr, "go-engine: reading:", err)
			break
		}
		// flush when no complete request is waiting: the harness writes many
		// requests before it reads, and waits for the answers to what it sent
		if pending, _ := in.Peek(in.Buffered()); bytes.IndexByte(pending, '\n') < 0 {
			out.Flush()
		}
	}
	out.Flush()
}

var errTooLong = errors.New("the request is longer than 1 MiB")

// readLine reads one line without its line feed; a line over maxLine is
// skipped to its end and reported as errTooLong.
func readLine(in *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := in.ReadSlice('\n')
		if len(line)+len(chunk) > maxLine+1 { // +1: the line feed
			if err == bufio.ErrBufferFull {
				skipLine(in)
			}
			return nil, errTooLong
		}
		line = append(line, chunk...)
		if err != bufio.ErrBufferFull {
			return bytes.TrimSuffix(line, []byte("\n")), err
		}
	}
}

func skipLine(in *bufio.Reader) {
	for {
		if _, err := in.ReadSlice('\n'); err != bufio.ErrBufferFull {
			return
		}
	}
}

func writeResponse(out *bufio.Writer, r response) {
	data, err := json.Marshal(r)
	if err != nil {
		data, _ = json.Marshal(response{ID: r.ID, Error: &engineError{"internal", err.Error()}})
	}
	out.Write(data)
	out.WriteByte('\n')
}
