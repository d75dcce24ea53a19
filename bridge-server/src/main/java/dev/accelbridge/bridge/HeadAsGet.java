package dev.accelbridge.bridge;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;

/**
 * HEAD answers exactly as GET would, headers and status, without the body (RFC 9110): the request runs the GET route
 * (token, Host and every other check included) and what it writes is dropped. Javalin answered HEAD with 200 for any GET
 * route without running it, so {@code HEAD /models/x} said 200 where GET says 404.
 */
final class HeadAsGet extends Handler.Wrapper {
    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (!"HEAD".equals(request.getMethod())) {
            return super.handle(request, response, callback);
        }
        Request get = new Request.Wrapper(request) {
            @Override
            public String getMethod() {
                return "GET";
            }
        };
        Response noBody = new Response.Wrapper(get, response) {
            @Override
            public void write(boolean last, ByteBuffer content, Callback cb) {
                super.write(last, BufferUtil.EMPTY_BUFFER, cb);
            }
        };
        return super.handle(get, noBody, callback);
    }
}
