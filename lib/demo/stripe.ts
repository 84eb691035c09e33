import { z } from "zod";
import { defineDemoTool, type DemoTool } from "./types";

const customerId = z.string().regex(/^cus_/).describe('Stripe customer ID, starting with "cus_".');

export const STRIPE_TOOLS: DemoTool[] = [
  defineDemoTool({
    name: "stripe_find_customer",
    summary: "Look up a Stripe customer by email, name or ID and see their subscriptions, balance and payment method.",
    description:
      "Searches Stripe customers and returns matches with ID, email, name, creation date, account balance, default payment method (brand and last four digits only) and active subscriptions. Start here for any billing question about a specific customer.",
    parameters: {
      email: z.email().optional().describe("Exact email address."),
      name: z.string().optional().describe("Part of the customer's name."),
      customerId: customerId.optional(),
    },
    tags: ["stripe", "billing", "customers", "read-only"],
  }),
  defineDemoTool({
    name: "stripe_list_invoices",
    summary: "List a Stripe customer's invoices with amounts, status (paid, open, void) and hosted invoice links.",
    description:
      "Returns a customer's invoices, newest first, with number, amount due and paid, currency, status, period and the URL of the hosted invoice page. Amounts are in the currency's smallest unit (cents).",
    parameters: {
      customerId,
      status: z.enum(["draft", "open", "paid", "uncollectible", "void"]).optional().describe("Only invoices with this status."),
      limit: z.int().min(1).max(100).default(10).describe("Maximum number of invoices."),
    },
    tags: ["stripe", "billing", "invoices", "read-only"],
  }),
  defineDemoTool({
    name: "stripe_create_refund",
    summary: "Refund a Stripe payment fully or partially, with a reason, returning money to the customer's card.",
    description:
      "Creates a refund for a payment intent or charge. Omit amount for a full refund. Refunds take 5-10 business days to reach the customer and cannot be cancelled once processed, so confirm amount and payment with the user first.",
    parameters: {
      paymentIntentId: z.string().regex(/^pi_/).describe('Payment intent ID, starting with "pi_".'),
      amount: z.int().min(1).optional().describe("Amount to refund in the smallest currency unit; the full amount when omitted."),
      reason: z.enum(["duplicate", "fraudulent", "requested_by_customer"]).describe("Why the payment is refunded."),
    },
    tags: ["stripe", "billing", "payments", "write"],
  }),
  defineDemoTool({
    name: "stripe_cancel_subscription",
    summary: "Cancel a Stripe subscription now or at the end of the current billing period, optionally prorating.",
    description:
      "Cancels a subscription. By default it stays active until the end of the paid period and does not renew; with immediately set, access ends now and prorate decides whether unused time is credited. Confirm with the user before cancelling.",
    parameters: {
      subscriptionId: z.string().regex(/^sub_/).describe('Subscription ID, starting with "sub_".'),
      immediately: z.boolean().default(false).describe("End the subscription now instead of at period end."),
      prorate: z.boolean().default(false).describe("With immediately: credit the unused time."),
      feedback: z
        .enum(["too_expensive", "missing_features", "switched_service", "unused", "customer_service", "other"])
        .optional()
        .describe("The customer's stated reason."),
    },
    tags: ["stripe", "billing", "subscriptions", "write"],
  }),
];
