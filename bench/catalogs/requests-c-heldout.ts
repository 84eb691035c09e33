/**
 * Requests about catalog C's services, written after the local ranker was tuned and before any
 * work measured on them: held out, evaluated once. Phrasing styles the other sets have less of:
 * chatty requests that give context first, terse commands, questions that do not name the
 * service, and several tasks in one breath.
 */
export const REQUESTS_C_HELDOUT: string[][] = [
  // monday.com
  ["add 'Renew SSL certificates' to the Ops board on monday, and mark the launch checklist item as Done", "monday:create_item", "monday:change_column_value"],
  ["go through our Content Calendar board on monday and archive the old webinar row, we don't need it anymore", "monday:get_items", "monday:archive_item"],
  [
    "I just talked to the printer, they need the artwork by thursday — note that on the brochure item in monday and push it to the 'Blocked' group",
    "monday:create_update",
    "monday:move_item_to_group",
  ],
  ["break the website redesign item into subitems: wireframes, copy, QA", "monday:create_subitem"],
  // Okta
  ["new hire Ana Ruiz starts monday, create her okta account and put her in the Engineering group", "okta:create_user", "okta:add_user_to_group"],
  ["Tom left the company today. Disable his okta login", "okta:deactivate_user"],
  ["my phone got stolen and I can't do the MFA push anymore, can you reset my factors in okta", "okta:reset_factors"],
  ["give priya access to the Salesforce app through okta SSO", "okta:assign_app_to_user"],
  [
    "j.kim says she is locked out: check the okta log for her failed sign-ins last night, then send her a password reset",
    "okta:list_system_logs",
    "okta:reset_password",
  ],
  ["who's in the Finance group in okta", "okta:list_group_members"],
  // Auth0
  ["find the auth0 user with the email bob@example.com and block them, we see credential stuffing", "auth0:get_users", "auth0:block_user"],
  ["register a new single-page app in auth0 with callback https://app.acme.io/callback", "auth0:create_client"],
  ["our client secret leaked in a public repo!! rotate it now (auth0)", "auth0:rotate_client_secret"],
  ["set up an auth0 organization for our new B2B customer Contoso; also dana needs the admin role", "auth0:create_organization", "auth0:assign_roles"],
  ["GDPR request: remove user auth0|5521 completely", "auth0:delete_user"],
  ["show failed logins in auth0 over the last hour", "auth0:get_logs"],
  // Netlify
  ["the last netlify deploy broke the homepage, roll back to the previous one", "netlify:list_deploys", "netlify:restore_deploy"],
  [
    "set STRIPE_KEY as an env variable for production builds on netlify, then redeploy the marketing site with a clean cache",
    "netlify:set_env_var",
    "netlify:trigger_build",
  ],
  ["hook up docs.acme.io to the docs site on netlify", "netlify:add_custom_domain"],
  ["any new contact form entries on the netlify site?", "netlify:list_form_submissions"],
  ["spin up a new netlify site from github.com/acme/landing, build with npm run build and publish dist", "netlify:create_site"],
  // Prometheus
  ["what's the current p99 latency of the checkout service? here's the promql: histogram_quantile(0.99, ...)", "prometheus:instant_query"],
  ["graph CPU usage of the api pods over the last 6 hours, 1 minute steps", "prometheus:range_query"],
  ["which alerts are firing right now in prometheus? are any scrape targets down?", "prometheus:list_alerts", "prometheus:list_targets"],
  ["we're doing maintenance on db-2 for 2 hours, mute its alerts in alertmanager", "prometheus:create_silence"],
  ["list every job label value we scrape", "prometheus:label_values"],
  // Snowflake
  ["what columns does ANALYTICS.PUBLIC.EVENTS have in snowflake? then count last week's rows in it", "snowflake:describe_table", "snowflake:execute_sql"],
  [
    "the nightly job is slow, bump the ETL warehouse to LARGE and show me the slowest recent queries",
    "snowflake:resize_warehouse",
    "snowflake:get_query_history",
  ],
  ["stop the reporting warehouse so it doesn't burn credits over the weekend", "snowflake:suspend_warehouse"],
  ["how many snowflake credits did we use in november, per warehouse", "snowflake:get_credit_usage"],
  ["load the parquet files from @raw_stage into the clicks table", "snowflake:load_from_stage"],
  // Reddit
  ["what are people on r/selfhosted saying about our app? search for 'toolshed'", "reddit:search_posts"],
  ["post our launch announcement on r/webdev with the link to the blog", "reddit:submit_post"],
  ["reply to that reddit thread thanking them for the feedback and upvote it", "reddit:comment", "reddit:vote"],
  ["what's hot on r/programming today? open the top post and read its comments, best first", "reddit:get_hot_posts", "reddit:get_comments"],
  ["DM u/jsmith on reddit to ask if we can feature their tutorial", "reddit:send_private_message"],
  ["how old is the reddit account spam_king_99 and how much karma does it have", "reddit:get_user_about"],
  // Box
  ["put the signed NDA pdf in the Legal folder on box and share it with counsel@lawfirm.com as a viewer", "box:upload_file", "box:add_collaboration"],
  ["find the Q3 board deck in box and make a link to it that anyone can open, expiring in 7 days", "box:search", "box:create_shared_link"],
  ["I need an old version of pricing.xlsx from box, the one from last week", "box:get_file_versions"],
  ["lock the budget spreadsheet on box while I'm editing it", "box:lock_file"],
  ["create a folder 'Candidates 2025' under HR in box", "box:create_folder"],
  // WhatsApp
  ["whatsapp the customer the PDF invoice and write them that it's due in 14 days", "whatsapp:send_media", "whatsapp:send_text"],
  ["share our store's location pin with the courier via whatsapp", "whatsapp:send_location"],
  ["was our new 'shipping delay' whatsapp template approved yet? if so send it to +4915112345678", "whatsapp:list_templates", "whatsapp:send_template"],
  ["draft a whatsapp marketing template for the black friday sale and submit it", "whatsapp:create_template"],
  // LinkedIn
  ["announce our series A on the company linkedin page", "linkedin:create_post"],
  [
    "for the linkedin quarterly report: followers gained by the company page, and impressions and clicks of the hiring event post",
    "linkedin:get_company_followers",
    "linkedin:get_post_analytics",
  ],
  ["connect with Maria Lopez on linkedin with a note that we met at the conference", "linkedin:send_invitation"],
  // Google Analytics
  ["how many sessions did we get per country last month in google analytics", "ga:run_report"],
  ["count newsletter_signup as a conversion in GA4 and show me how many people are on the site right now", "ga:create_key_event", "ga:run_realtime_report"],
  ["build a GA audience of users who added to cart but didn't buy in 30 days", "ga:create_audience"],
  // Mixpanel
  ["how many signups per day this week in mixpanel, broken down by platform", "mixpanel:query_insights"],
  ["where do users drop off in the onboarding funnel (mixpanel)", "mixpanel:query_funnel"],
  ["do users who sign up in january come back? week-over-week retention", "mixpanel:query_retention"],
  [
    "mark user 8812 as plan=enterprise in mixpanel. Also export yesterday's raw events for the data team",
    "mixpanel:set_user_profile",
    "mixpanel:export_events",
  ],
  // CircleCI
  ["rerun only the failed jobs of the last circleci workflow on main", "circleci:list_pipelines", "circleci:rerun_workflow"],
  ["kick off a circleci pipeline for the release/2.4 branch with deploy=true", "circleci:trigger_pipeline"],
  [
    "for circleci job 4512 of gh/acme/web: which tests failed, and grab the coverage report artifact",
    "circleci:get_test_metadata",
    "circleci:get_job_artifacts",
  ],
  ["how flaky is the build-and-test workflow lately, success rate and duration", "circleci:get_insights"],
  ["cancel the circleci workflow that's running, I pushed the wrong commit", "circleci:cancel_workflow"],
  // Jenkins
  ["jenkins build 212 of backend/deploy failed, show me the console log", "jenkins:get_console_output"],
  ["abort jenkins build 87 of the data-import job, it's stuck", "jenkins:stop_build"],
  ["why are builds waiting so long? check the jenkins queue and whether the agents are online", "jenkins:get_queue", "jenkins:list_nodes"],
  ["did the jenkins release job #44 pass? if yes start nightly-e2e with BROWSER=firefox", "jenkins:get_build_status", "jenkins:build_job"],
  // DigitalOcean
  ["reboot the droplet 3324 and then snapshot it", "digitalocean:droplet_action"],
  ["add an A record for api.acme.dev pointing to 203.0.113.7 on digitalocean", "digitalocean:create_domain_record"],
  [
    "check how much we've spent on digitalocean this month before I spin up a 2GB droplet in fra1 with ubuntu 24.04",
    "digitalocean:list_balance",
    "digitalocean:create_droplet",
  ],
  ["we need a managed postgres 16 cluster with two nodes in nyc3", "digitalocean:create_database_cluster"],
  ["only allow ssh and https into the web droplets", "digitalocean:create_firewall"],
  // Heroku
  ["scale the web dynos of shop-prod to 4 standard-2x", "heroku:scale_dynos"],
  ["the heroku app is returning H12 timeouts — show the last 200 log lines and restart it", "heroku:get_logs", "heroku:restart_dynos"],
  ["v142 broke checkout, roll shop-prod back to v141", "heroku:rollback_release"],
  ["provision heroku postgres for the staging app and set SENTRY_DSN in its config", "heroku:create_addon", "heroku:set_config_vars"],
  // Supabase
  [
    "create a private storage bucket 'avatars' in supabase and deploy the resize-image edge function",
    "supabase:create_storage_bucket",
    "supabase:deploy_edge_function",
  ],
  ["apply this migration to supabase: alter table orders add column notes text", "supabase:apply_migration"],
  [
    "invite kim@acme.io to the app in supabase, then show me the latest rows of the profiles table to check she's there",
    "supabase:invite_user",
    "supabase:select_rows",
  ],
  ["auth is rejecting logins, check the supabase auth logs", "supabase:get_project_logs"],
  // Algolia
  ["searching 'sneakers' on our shop shows nothing, make it find 'trainers' too", "algolia:save_synonym"],
  ["what do customers search for most that returns zero results", "algolia:get_top_searches"],
  ["push these 3 new products to the algolia products index and make brand and color facets", "algolia:save_objects", "algolia:set_settings"],
  // WordPress
  ["publish a blog post on wordpress titled 'Our 2025 roadmap' with the text below, category Product", "wordpress:create_post"],
  ["which wordpress plugins need updating? update woocommerce if it does", "wordpress:list_plugins", "wordpress:update_plugin"],
  ["upload the hero image to the media library and set it as the featured image of the roadmap post", "wordpress:upload_media", "wordpress:update_post"],
  ["add an About Us page to the wordpress site and approve the pending comments", "wordpress:create_page", "wordpress:moderate_comment"],
  // DocuSign
  ["send the employment contract to ana@acme.io for signature, then to the CEO", "docusign:send_envelope"],
  ["has the supplier signed the agreement yet? if not, nudge them again", "docusign:get_envelope_status", "docusign:resend_envelope"],
  ["we sent the wrong version of the NDA, cancel it and send the corrected one to the same signers", "docusign:void_envelope", "docusign:send_envelope"],
  ["get me the signed copy of envelope 7f3a", "docusign:download_signed_document"],
  // Greenhouse
  [
    "move Lina's application to the onsite stage and book her interviews with Sam and Wei on thursday 10-12",
    "greenhouse:advance_application",
    "greenhouse:schedule_interview",
  ],
  ["politely reject the applicant for the designer role, not enough experience", "greenhouse:reject_application"],
  ["here's my interview feedback for Omar: strong yes, great system design", "greenhouse:submit_scorecard"],
  ["which positions are we hiring for right now? add Jamal Brown with his CV to the backend one", "greenhouse:list_jobs", "greenhouse:create_candidate"],
  ["offer the job to Lina at 120k starting march 1", "greenhouse:create_offer"],
  // BambooHR
  ["who's out of the office next week? I'd like to book vacation from the 22nd too", "bamboohr:list_whos_out", "bamboohr:request_time_off"],
  ["who is Priya's manager, and how many vacation days does she have left", "bamboohr:get_employee", "bamboohr:get_time_off_balance"],
  ["Leo moves to the Platform team as Staff Engineer from next month, update his record", "bamboohr:update_employee"],
  ["onboard our new designer Mia Chen starting feb 3 in bamboohr", "bamboohr:add_employee"],
  // Xero
  ["our AWS bill came in, record it in xero as a bill to pay", "xero:create_bill"],
  ["which xero invoices are still unpaid", "xero:list_invoices"],
  ["Globex paid their invoice today, mark it paid in xero", "xero:list_invoices", "xero:create_payment"],
  ["year-end in xero: the balance sheet as of 31 december and the profit and loss for the year", "xero:get_balance_sheet", "xero:get_profit_and_loss"],
  ["pull the bank transactions from this week so I can reconcile them", "xero:get_bank_transactions"],
  // Square
  ["refund the $18 latte payment on square, the customer got the wrong order", "square:refund_payment"],
  ["add the pumpkin spice latte to the cafe's square menu at $5.50", "square:upsert_catalog_item"],
  ["we received 40 bags of coffee beans at the downtown shop, update stock", "square:adjust_inventory"],
  ["book a haircut for Jess with Marco saturday 11am", "square:create_booking"],
  [
    "how much did the shop take in card payments yesterday, and how many staff do we have at the downtown location",
    "square:list_payments",
    "square:list_team_members",
  ],
  // Home Assistant
  ["turn off all the lights in the living room and set the thermostat to 19 degrees", "homeassistant:turn_off", "homeassistant:set_thermostat"],
  ["going to bed: is the garage door open? and lock the front door", "homeassistant:get_state", "homeassistant:lock_door"],
  ["movie time! dim the lights", "homeassistant:run_scene"],
  ["make the kitchen light warm white at 40%", "homeassistant:turn_on"],
  ["how cold did the bedroom get last night", "homeassistant:get_history"],
  // Eventbrite
  [
    "set up our meetup on eventbrite: 'Rust Berlin #12', march 5 7pm, 80 seats, free tickets, and publish it",
    "eventbrite:create_event",
    "eventbrite:create_ticket_class",
    "eventbrite:publish_event",
  ],
  ["who's coming to the workshop? I need the attendee list for name badges", "eventbrite:list_attendees"],
  [
    "ticket sales for the conference are slow — check the numbers and make a 20% off code EARLYBIRD for 50 tickets",
    "eventbrite:get_event_sales",
    "eventbrite:create_discount",
  ],
  ["any design events in lisbon next month?", "eventbrite:search_events"],
  // Twitch
  ["am I live on twitch? how many viewers? and clip the last 30 seconds", "twitch:get_streams", "twitch:create_clip"],
  ["change my stream title to 'Speedrun attempts all night' and category to Celeste", "twitch:update_channel"],
  ["time out the guy spamming caps in chat for 10 minutes", "twitch:ban_user"],
  ["start a viewer poll: next game, hollow knight or hades? 2 minutes", "twitch:create_poll"],
  ["wrap up the stream by raiding my friend's channel and announce it in chat first", "twitch:send_chat_announcement", "twitch:start_raid"],
  // Across services
  ["deploy failed on circleci — open the logs on heroku and tell me if the dynos crashed", "circleci:get_workflow", "heroku:get_logs"],
  [
    "new contractor Ben: okta account, bamboohr record, and send his contract through docusign",
    "okta:create_user",
    "bamboohr:add_employee",
    "docusign:send_envelope",
  ],
  ["post the release notes on the wordpress blog and share the link on linkedin", "wordpress:create_post", "linkedin:create_post"],
  [
    "the conference sold out on eventbrite — post it on reddit r/rust and on our linkedin page",
    "eventbrite:get_event_sales",
    "reddit:submit_post",
    "linkedin:create_post",
  ],
  ["compare signups in mixpanel with sessions in google analytics for last week", "mixpanel:query_insights", "ga:run_report"],
  ["prometheus says the disk on the droplet is almost full; resize droplet 3324 to the next size", "prometheus:list_alerts", "digitalocean:droplet_action"],
  ["a customer paid in the shop via square, record the payment against their xero invoice", "square:list_payments", "xero:create_payment"],
];
