package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// runWatch implements `ictal watch [-broker URL] [-topic ictal/#] [-count N]
// [TLS and auth flags]`: it subscribes and prints a line per message (see
// watchLine) until interrupted or N messages were printed.
func runWatch(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("watch", "usage: ictal watch [-broker URL] [-topic ictal/#] [flags]\n"+
		"Prints alerts, event ends and status changes as they arrive, in local time.\n"+
		"The session is persistent (as mosquitto_sub -c): alerts published while this\n"+
		"watcher is away or reconnecting are printed when it is back, provided it uses\n"+
		"the same -client-id (default ictal-watch-USER@HOST).", stderr)
	cf := addConnFlags(fs, "tcp://127.0.0.1:1883")
	topic := fs.String("topic", "ictal/#", "topic filter to watch (e.g. ictal/ward-7/# for one ward)")
	scores := fs.Bool("scores", false, "also print per-window scores")
	count := fs.Int("count", 0, "exit after printing this many messages (0: until interrupted)")
	clean := fs.Bool("clean", false, "a clean session: miss what is published while not connected (default: a persistent session under -client-id)")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if cf.clientID == "" && !*clean {
		cf.clientID = watcherID()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var mu sync.Mutex // serialises output; handlers may run concurrently
	printed := 0
	handler := func(_ paho.Client, m paho.Message) {
		if !*scores && len(m.Topic()) >= 6 && m.Topic()[len(m.Topic())-6:] == "/score" {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if *count > 0 && printed >= *count {
			return
		}
		fmt.Fprintln(stdout, watchLine(m.Topic(), m.Payload(), m.Retained(), time.Now()))
		printed++
		if *count > 0 && printed == *count {
			cancel()
		}
	}
	subErr := make(chan error, 1)
	onConnect := func(c paho.Client) {
		tok := c.Subscribe(*topic, 1, handler)
		tok.Wait()
		err := tok.Error()
		if st, ok := tok.(*paho.SubscribeToken); ok && err == nil && st.Result()[*topic] == 0x80 {
			err = errors.New("refused by the broker (ACL)")
		}
		if err != nil && !c.IsConnectionOpen() {
			return // the connection was lost meanwhile: the next onConnect subscribes
		}
		if err != nil {
			select {
			case subErr <- err:
			default:
			}
		}
	}
	cl, err := cf.connect("ictal-watch", session{persistent: !*clean, onConnect: onConnect, messages: handler})
	if err != nil {
		return err
	}
	defer cl.Disconnect(250)
	opts := cl.OptionsReader()
	fmt.Fprintf(stderr, "ictal watch: watching %s on %s as %s (clean session %v)\n", *topic, cf.broker, opts.ClientID(), opts.CleanSession())
	select {
	case <-ctx.Done():
		return nil
	case err := <-subErr:
		return fmt.Errorf("subscribe %s: %w", *topic, err)
	}
}

// watcherID is the default client ID of a persistent watch session: the
// same for one user on one machine, so that the broker keeps what arrives
// for them between runs.
func watcherID() string {
	user := os.Getenv("USER")
	if user == "" {
		user = strconv.Itoa(os.Getuid())
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	return "ictal-watch-" + user + "@" + host
}
