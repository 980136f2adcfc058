#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* Swift cannot call C-variadic functions, so the variadic parts of libmicrohttpd's API
   are wrapped here in fixed-signature inline functions. */

typedef void *(*cmhd_uri_log_callback)(void *cls, const char *uri,
                                       struct MHD_Connection *connection);

/* The options both the service and bench-ceiling start a daemon with. */
struct cmhd_daemon_options {
    /* An already listening socket (takes precedence), or -1. */
    int listen_fd;
    /* Address for libmicrohttpd to bind when listen_fd is -1 (NULL: any address). */
    const struct sockaddr *bind_address;
    uint16_t port;
    unsigned int threads;
    unsigned int connection_timeout_seconds;
    unsigned int per_ip_connection_limit;
    unsigned int connection_limit;
    /* Each connection's memory pool (request line, headers, read and write buffers), in
       bytes; 0 keeps libmicrohttpd's default (32 KiB). */
    size_t connection_memory_limit;
    cmhd_uri_log_callback uri_log;
    void *uri_log_cls;
    MHD_RequestCompletedCallback completed;
    void *completed_cls;
};

static inline struct MHD_Daemon *
cmhd_start_daemon(unsigned int flags, const struct cmhd_daemon_options *options,
                  MHD_AccessHandlerCallback handler, void *handler_cls)
{
    struct MHD_OptionItem items[11];
    int n = 0;
    items[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT,
                                         (intptr_t)options->connection_timeout_seconds, NULL};
    items[n++] = (struct MHD_OptionItem){MHD_OPTION_PER_IP_CONNECTION_LIMIT,
                                         (intptr_t)options->per_ip_connection_limit, NULL};
    items[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT,
                                         (intptr_t)options->connection_limit, NULL};
    if (options->connection_memory_limit > 0)
        items[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_MEMORY_LIMIT,
                                             (intptr_t)options->connection_memory_limit, NULL};
    if (options->threads > 1)
        items[n++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE,
                                             (intptr_t)options->threads, NULL};
    if (options->listen_fd >= 0)
        items[n++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_SOCKET,
                                             (intptr_t)options->listen_fd, NULL};
    else if (options->bind_address != NULL)
        items[n++] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0,
                                             (void *)options->bind_address};
    if (options->uri_log != NULL)
        items[n++] = (struct MHD_OptionItem){MHD_OPTION_URI_LOG_CALLBACK,
                                             (intptr_t)options->uri_log, options->uri_log_cls};
    if (options->completed != NULL)
        items[n++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED,
                                             (intptr_t)options->completed, options->completed_cls};
    items[n++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
    return MHD_start_daemon(flags, options->port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, items, MHD_OPTION_END);
}

/* The peer address of a connection, or NULL. */
static inline const struct sockaddr *
cmhd_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/* The size of the request's head (request line, header fields and the empty line after them)
   as received, or 0 when libmicrohttpd cannot tell. */
static inline size_t
cmhd_request_head_size(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

/* The port the daemon listens on (useful after binding port 0), or 0. */
static inline uint16_t
cmhd_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

#endif
