package io.hopscope.agent.instrumentation.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

/** Routes read from JAX-RS annotations, javax and jakarta alike, by JaxRsRoutes. */
class JaxRsRoutesTest {

    @jakarta.ws.rs.Path("orders/")
    static class JakartaOrders {
        @jakarta.ws.rs.GET
        @jakarta.ws.rs.Path("/{id: [0-9]+}")
        public String order(String id) {
            return id;
        }

        @jakarta.ws.rs.GET
        public String all() {
            return "";
        }

        @jakarta.ws.rs.Path("{id}/items")
        public Object items(String id) {
            return null;
        }
    }

    /** What a container makes of a resource (a CDI proxy): a subclass without the annotation. */
    static class JakartaOrdersProxy extends JakartaOrders {
    }

    @javax.ws.rs.Path("/")
    static class JavaxRoot {
        @javax.ws.rs.GET
        @javax.ws.rs.Path("/health/")
        public String health() {
            return "";
        }

        @javax.ws.rs.GET
        public String root() {
            return "";
        }
    }

    /** A sub-resource: no path of its own. */
    static class Items {
        @javax.ws.rs.GET
        @javax.ws.rs.Path("{ item : [a-z]{3}-[0-9]+ }")
        public String item(String item) {
            return item;
        }
    }

    @javax.ws.rs.Path("/things")
    interface ThingsApi {
    }

    static class Things implements ThingsApi {
        @javax.ws.rs.GET
        public String all() {
            return "";
        }
    }

    @Test
    void theClassAndTheMethodPathJoinedWithTheirRegexesLeftOut() throws Exception {
        assertThat(route(JakartaOrders.class, "order")).isEqualTo("/orders/{id}");
        assertThat(route(JakartaOrders.class, "all")).isEqualTo("/orders");
        assertThat(route(JakartaOrders.class, "items")).isEqualTo("/orders/{id}/items");
        assertThat(route(JavaxRoot.class, "health")).isEqualTo("/health");
        assertThat(route(JavaxRoot.class, "root")).isEqualTo("/");
    }

    @Test
    void aProxyTakesItsResourcesPathAndAnInterfacesPathCounts() throws Exception {
        Method order = JakartaOrders.class.getMethod("order", String.class);
        assertThat(JaxRsRoutes.of(JakartaOrdersProxy.class, order).route()).isEqualTo("/orders/{id}");
        assertThat(route(Things.class, "all")).isEqualTo("/things");
    }

    @Test
    void aSubResourceHasNoRouteOfItsOwnButItsMethodsPath() throws Exception {
        JaxRsRoutes.Route item = JaxRsRoutes.of(Items.class, Items.class.getMethod("item", String.class));
        assertThat(item.route()).isNull();
        assertThat(item.under("/api/")).isNull();
        assertThat(item.methodPath()).isEqualTo("/{item}");
    }

    @Test
    void aRouteGoesUnderTheApplicationsPath() throws Exception {
        JaxRsRoutes.Route order = JaxRsRoutes.of(JakartaOrders.class, JakartaOrders.class.getMethod("order", String.class));
        assertThat(order.under("/")).isEqualTo("/orders/{id}");
        assertThat(order.under("/ctx/api/")).isEqualTo("/ctx/api/orders/{id}");
        assertThat(order.under("/ctx/api/")).isSameAs(order.under("/ctx/api/")); // kept, not joined again
        assertThat(order.under(null)).isEqualTo("/orders/{id}");
        assertThat(order.under("/other")).isEqualTo("/other/orders/{id}");
    }

    @Test
    void theRouteIsComputedOnceAMethod() throws Exception {
        Method order = JakartaOrders.class.getMethod("order", String.class);
        assertThat(JaxRsRoutes.of(JakartaOrders.class, order)).isSameAs(JaxRsRoutes.of(JakartaOrders.class, order));
    }

    @Test
    void normalizing() {
        assertThat(JaxRsRoutes.normalize("")).isEmpty();
        assertThat(JaxRsRoutes.normalize("/")).isEmpty();
        assertThat(JaxRsRoutes.normalize("//a//")).isEqualTo("/a");
        assertThat(JaxRsRoutes.normalize(" a/{b:\\d{2}}/c ")).isEqualTo("/a/{b}/c");
        assertThat(JaxRsRoutes.normalize("{a}{b: x}")).isEqualTo("/{a}{b}");
        assertThat(JaxRsRoutes.normalize("a/{unclosed")).isEqualTo("/a/{unclosed}");
    }

    private static String route(Class<?> type, String method) throws Exception {
        for (Method m : type.getMethods()) {
            if (m.getName().equals(method)) {
                return JaxRsRoutes.of(type, m).route();
            }
        }
        throw new AssertionError("no method " + method);
    }
}
