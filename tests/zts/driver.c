/*
 * driver.c - many threads of one PHP process using shardcache at once, as a
 * threaded server (FrankenPHP, Apache's event MPM with ZTS) runs them, plus
 * a forked second process doing the same.
 *
 * Built against a ZTS PHP with the embed SAPI (scripts/provision/php-zts.sh) by
 * tests/zts/run.sh. One process starts PHP once (module startup: the cache
 * is mapped here), forks a child, and each process runs its threads; every
 * thread runs PHP requests in a loop (request startup, one call into
 * tests/zts/worker.php, request shutdown) until the time is up, and at
 * least SC_MIN_REQUESTS of them. Each request prints one "R ..." line of
 * counts and a "WRONG ..." line per wrong value; the output of a request
 * goes to a buffer of its own thread (ub_write).
 * At the end the main process runs one more request that sums the counters
 * and compares them with the increments and cas successes every thread of
 * both processes reported.
 *
 *   driver --ext=shardcache.so --worker=worker.php [--threads=8]
 *          [--child-threads=2] [--seconds=60] [--ops=400] [--fatal-every=25]
 *
 * Without ZTS (a check of the driver itself) only --threads=1 makes sense.
 *
 * Prints a summary and, last, "N passed, N failed" (1 check each: no wrong
 * value, no crash, counters add up). Exit 0 only when all pass.
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE /* PHP's headers use memrchr() */
#endif
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sapi/embed/php_embed.h>

/* Requests each thread runs at least, even past the deadline. */
#define SC_MIN_REQUESTS 2

typedef struct totals {
    unsigned long long requests, ops, wrong, incs, cas, entries, calls, fatals;
} totals;

typedef struct worker {
    pthread_t tid;
    char name[32];
    totals t;
} worker;

static const char *g_worker_php;
static double g_deadline;
static int g_ops = 400;
static int g_fatal_every = 25;
/* The embed SAPI's ini entries: ours to free (PHP 8.6 made the SAPI's
 * field a const char *). */
static char *g_ini_entries;

/* Output of the request running on this thread. */
static __thread char *t_out;
static __thread size_t t_len, t_cap;

static size_t drv_ub_write(const char *str, size_t len)
{
    if (t_len + len + 1 > t_cap) {
        size_t cap = t_cap ? t_cap : 4096;
        while (cap < t_len + len + 1) {
            cap *= 2;
        }
        t_out = realloc(t_out, cap);
        if (!t_out) {
            abort();
        }
        t_cap = cap;
    }
    memcpy(t_out + t_len, str, len);
    t_len += len;
    t_out[t_len] = '\0';
    return len;
}

static void drv_log_message(const char *message, int syslog_type)
{
    (void)syslog_type;
    (void)message; /* fatal errors are expected in the fatal requests */
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Runs one request whose body is the PHP code in code; its output is in
 * t_out afterwards. */
static void run_request(const char *code)
{
    t_len = 0;
    if (t_out) {
        t_out[0] = '\0';
    }
    SG(options) |= SAPI_OPTION_NO_CHDIR;
    SG(request_info).argc = 0;
    SG(request_info).argv = NULL;
    if (php_request_startup() == FAILURE) {
        fprintf(stderr, "driver: request startup failed\n");
        abort();
    }
    SG(headers_sent) = 1;
    SG(request_info).no_headers = 1;
    zend_first_try {
        zend_eval_string((char *)code, NULL, (char *)"driver");
    } zend_end_try();
    php_request_shutdown(NULL);
}

/* Adds the request's "R ..." line to t; prints its WRONG lines. */
static void account(worker *w, bool fatal)
{
    const char *p = t_out ? t_out : "";
    const char *line;
    bool seen = false;

    for (line = p; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        unsigned long long ops, wrong, incs, cas, entries, calls;
        if (strncmp(line, "WRONG ", 6) == 0) {
            const char *end = strchr(line, '\n');
            fprintf(stderr, "%s: %.*s\n", w->name, end ? (int)(end - line) : (int)strlen(line), line);
        } else if (sscanf(line, "R ops=%llu wrong=%llu incs=%llu cas=%llu entries=%llu calls=%llu", &ops, &wrong,
                          &incs, &cas, &entries, &calls) == 6) {
            w->t.ops += ops;
            w->t.wrong += wrong;
            w->t.incs += incs;
            w->t.cas += cas;
            w->t.entries += entries;
            w->t.calls += calls;
            seen = true;
        }
    }
    w->t.requests++;
    if (fatal) {
        w->t.fatals++;
        /* The fatal error must have ended the request: no WRONG line (counted
         * above), and its message was printed. */
        if (!strstr(p, "fatal while decoding")) {
            fprintf(stderr, "%s: a fatal request printed no fatal error: %s\n", w->name, p);
            w->t.wrong++;
        }
    }
    if (!seen) {
        fprintf(stderr, "%s: a request printed no result line: %.300s\n", w->name, p);
        w->t.wrong++;
    }
}

static void *thread_main(void *arg)
{
    worker *w = arg;
    char code[1024];
    unsigned long n = 0;

#ifdef ZTS
    (void)ts_resource(0);
#endif
    /* Until the time is up, and at least SC_MIN_REQUESTS requests: the
     * check that every thread ran its requests then holds however slowly a
     * loaded machine (or valgrind) runs them, and says whether requests
     * were counted, not whether the machine was fast enough. */
    while (n < SC_MIN_REQUESTS || now_s() < g_deadline) {
        bool fatal = g_fatal_every > 0 && n % (unsigned long)g_fatal_every == (unsigned long)g_fatal_every - 1;
        if (fatal) {
            snprintf(code, sizeof(code), "require_once '%s'; sc_fatal_request('%s');", g_worker_php, w->name);
        } else {
            snprintf(code, sizeof(code), "mt_srand(%lu); require_once '%s'; sc_work('%s', %d, %lu);",
                     (unsigned long)(n * 7919 + (unsigned long)(uintptr_t)w), g_worker_php, w->name, g_ops, n);
        }
        run_request(code);
        account(w, fatal);
        n++;
    }
    free(t_out);
    t_out = NULL;
    t_cap = t_len = 0;
#ifdef ZTS
    ts_free_thread();
#endif
    return NULL;
}

/* Runs nthreads workers named <prefix><i>; returns their sum. */
static totals run_threads(const char *prefix, int nthreads)
{
    worker *ws = calloc((size_t)nthreads, sizeof(worker));
    totals sum = {0};
    int i;

    for (i = 0; i < nthreads; i++) {
        snprintf(ws[i].name, sizeof(ws[i].name), "%s%d", prefix, i);
        if (pthread_create(&ws[i].tid, NULL, thread_main, &ws[i]) != 0) {
            fprintf(stderr, "driver: pthread_create failed\n");
            exit(2);
        }
    }
    for (i = 0; i < nthreads; i++) {
        pthread_join(ws[i].tid, NULL);
        sum.requests += ws[i].t.requests;
        sum.ops += ws[i].t.ops;
        sum.wrong += ws[i].t.wrong;
        sum.incs += ws[i].t.incs;
        sum.cas += ws[i].t.cas;
        sum.entries += ws[i].t.entries;
        sum.calls += ws[i].t.calls;
        sum.fatals += ws[i].t.fatals;
    }
    free(ws);
    return sum;
}

static void php_start(const char *ext)
{
    char ini[2048];

#ifdef ZTS
    php_tsrm_startup();
#endif
    zend_signal_startup();
    php_embed_module.ub_write = drv_ub_write;
    php_embed_module.log_message = drv_log_message;
    sapi_startup(&php_embed_module);
    snprintf(ini, sizeof(ini),
             "html_errors=0\nimplicit_flush=1\noutput_buffering=0\nmax_execution_time=0\n"
             "display_errors=1\nlog_errors=0\nerror_reporting=32767\nmemory_limit=256M\n"
             "extension=%s\napc.enabled=1\napc.shm_size=64M\n",
             ext);
    g_ini_entries = strdup(ini);
    php_embed_module.ini_entries = g_ini_entries;
    php_embed_module.php_ini_ignore = 1;
    if (php_embed_module.startup(&php_embed_module) == FAILURE) {
        fprintf(stderr, "driver: PHP module startup failed\n");
        exit(2);
    }
}

static void php_stop(void)
{
    php_module_shutdown();
    sapi_shutdown();
#ifdef ZTS
    tsrm_shutdown();
#endif
    php_embed_module.ini_entries = NULL;
    free(g_ini_entries);
    g_ini_entries = NULL;
}

int main(int argc, char **argv)
{
    const char *ext = NULL;
    int threads = 8, child_threads = 2, seconds = 60, i, pipefd[2], status = 0;
    unsigned long long counters = 0, casv = 0;
    totals mine, child = {0};
    pid_t pid;
    worker mainw = {0};
    int passed = 0, failed = 0;
    bool crash = false, counts_ok;

    for (i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--ext=", 6) == 0) {
            ext = argv[i] + 6;
        } else if (strncmp(argv[i], "--worker=", 9) == 0) {
            g_worker_php = argv[i] + 9;
        } else if (strncmp(argv[i], "--threads=", 10) == 0) {
            threads = atoi(argv[i] + 10);
        } else if (strncmp(argv[i], "--child-threads=", 16) == 0) {
            child_threads = atoi(argv[i] + 16);
        } else if (strncmp(argv[i], "--seconds=", 10) == 0) {
            seconds = atoi(argv[i] + 10);
        } else if (strncmp(argv[i], "--ops=", 6) == 0) {
            g_ops = atoi(argv[i] + 6);
        } else if (strncmp(argv[i], "--fatal-every=", 14) == 0) {
            g_fatal_every = atoi(argv[i] + 14);
        } else {
            fprintf(stderr, "driver: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (!ext || !g_worker_php || threads < 1 || child_threads < 0 || seconds < 1 || g_ops < 1) {
        fprintf(stderr, "usage: driver --ext=shardcache.so --worker=worker.php [--threads=8] [--child-threads=2] "
                        "[--seconds=60] [--ops=400] [--fatal-every=25]\n");
        return 2;
    }

    php_start(ext);
    strcpy(mainw.name, "main");
    {
        char code[1024];
        snprintf(code, sizeof(code), "require_once '%s'; sc_setup(); echo 'R ops=0 wrong=0 incs=0 cas=0 "
                                     "entries=0 calls=0', \"\\n\";",
                 g_worker_php);
        run_request(code);
        if (!t_out || !strstr(t_out, "R ops=0")) {
            fprintf(stderr, "driver: the setup request failed: %s\n", t_out ? t_out : "(no output)");
            return 2;
        }
    }
    g_deadline = now_s() + seconds;

    /* The second process: forked while this one has no other thread. */
    if (child_threads > 0) {
        if (pipe(pipefd) != 0) {
            perror("pipe");
            return 2;
        }
        fflush(NULL);
        pid = fork();
        if (pid < 0) {
            perror("fork");
            return 2;
        }
        if (pid == 0) {
            totals t;
#if PHP_VERSION_ID >= 80500
            /* A SAPI that forks tells PHP so in the child (PHP 8.5, SAPI
             * changes): the inherited heap gets new keys. Only this thread
             * had run PHP code before the fork. */
            php_child_init();
#endif
            close(pipefd[0]);
            t = run_threads("child-t", child_threads);
            if (write(pipefd[1], &t, sizeof(t)) != (ssize_t)sizeof(t)) {
                _exit(3);
            }
            close(pipefd[1]);
            free(t_out);
            t_out = NULL;
            php_stop();
            _exit(0);
        }
        close(pipefd[1]);
    } else {
        pid = -1;
    }

    mine = run_threads("t", threads);

    if (pid > 0) {
        ssize_t got = read(pipefd[0], &child, sizeof(child));
        close(pipefd[0]);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        if (got != (ssize_t)sizeof(child) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            crash = true;
            if (WIFSIGNALED(status)) {
                fprintf(stderr, "driver: the forked process died of signal %d\n", WTERMSIG(status));
            } else {
                fprintf(stderr, "driver: the forked process exited with %d (read %zd bytes)\n",
                        WIFEXITED(status) ? WEXITSTATUS(status) : -1, got);
            }
        }
    }

    {
        char code[1024];
        snprintf(code, sizeof(code), "require_once '%s'; sc_final();", g_worker_php);
        run_request(code);
        if (!t_out || sscanf(strstr(t_out, "F ") ? strstr(t_out, "F ") : "", "F counters=%llu cas=%llu", &counters,
                             &casv) != 2) {
            fprintf(stderr, "driver: the final request failed: %s\n", t_out ? t_out : "(no output)");
            crash = true;
        }
    }
    free(t_out);
    t_out = NULL;
    php_stop();

    counts_ok = counters == mine.incs + child.incs && casv == mine.cas + child.cas;
    printf("driver: %d threads + forked process with %d threads, %d s, %d ops per request, 1 request in %d ends "
           "in a fatal error\n",
           threads, child_threads, seconds, g_ops, g_fatal_every);
    printf("driver: main process:   %llu requests (%llu fatal), %llu ops, %llu wrong, %llu incs, %llu cas, "
           "%llu entry calls (%llu callbacks)\n",
           mine.requests, mine.fatals, mine.ops, mine.wrong, mine.incs, mine.cas, mine.entries, mine.calls);
    printf("driver: forked process: %llu requests (%llu fatal), %llu ops, %llu wrong, %llu incs, %llu cas, "
           "%llu entry calls (%llu callbacks)\n",
           child.requests, child.fatals, child.ops, child.wrong, child.incs, child.cas, child.entries, child.calls);
    printf("driver: counters sum %llu (incs reported %llu), cas sum %llu (successes reported %llu)\n", counters,
           mine.incs + child.incs, casv, mine.cas + child.cas);

#define CHECK(ok, what)                                  \
    do {                                                 \
        if (ok) {                                        \
            passed++;                                    \
            printf("driver: ok   %s\n", what);           \
        } else {                                         \
            failed++;                                    \
            printf("driver: FAIL %s\n", what);           \
        }                                                \
    } while (0)
    CHECK(mine.wrong + child.wrong == 0, "no wrong value read");
    CHECK(!crash, "no crash (forked process and final request)");
    CHECK(counts_ok, "counters and cas values add up to what was reported");
    CHECK(mine.requests >= (unsigned long long)SC_MIN_REQUESTS * threads
              && child.requests >= (unsigned long long)SC_MIN_REQUESTS * child_threads,
          "every thread of every process ran its requests");
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
